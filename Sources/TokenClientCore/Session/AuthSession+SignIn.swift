public import AuthAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthSession {
    /// Signs in with an identity provider's ID token (`POST /auth/idtoken`, bearer strategy), stores the tokens
    /// and publishes ``SessionState/signedIn(_:)``, as ``login(email:password:)`` does.
    ///
    /// ```swift
    /// // Sign in with Apple: a nonce from the server; its hash for the request, the raw one here.
    /// let nonce = try await session.signInNonce()
    /// request.nonce = nonce.sha256
    /// // … ASAuthorizationController gives an ASAuthorizationAppleIDCredential …
    /// guard let data = credential.identityToken else { return }
    /// let idToken = String(decoding: data, as: UTF8.self)
    /// let code = credential.authorizationCode.map { String(decoding: $0, as: UTF8.self) }
    /// let result = try await session.signIn(
    ///     provider: "apple", idToken: idToken, nonce: nonce.raw, authorizationCode: code)
    /// if result.created { showWelcome() }
    /// ```
    ///
    /// - Parameters:
    ///   - provider: The provider's name in the server's `identityProviders`, e.g. `"apple"` or `"google"`.
    ///   - idToken: The ID token the provider's SDK returned.
    ///   - nonce: The raw nonce of this sign-in: ``SignInNonce/raw`` of ``signInNonce()``, which a server with
    ///     `identity.requireServerNonce` (the default) requires; nil only for a server that allows no nonce.
    ///   - name: The name Apple reports on the first sign-in, if any.
    ///   - authorizationCode: Apple's one-time `authorizationCode` of the same sign-in. A server with Apple's REST
    ///     API configured redeems it and keeps Apple's refresh token, to revoke it when the account is deleted
    ///     (Apple TN3194); send it on every Sign in with Apple. A failed redemption does not fail the sign-in.
    /// - Returns: the signed-in user and whether this sign-in created the account.
    /// - Throws: ``TokenClientError/server(status:body:)`` (401 `invalid_grant` for a refused token, 409
    ///   `identity_conflict`, 403 `registration_closed`, 429, 503 when the provider's keys cannot be fetched…),
    ///   ``TokenClientError/transport(_:)``, ``TokenClientError/invalidResponse``.
    @discardableResult
    public func signIn(
        provider: String, idToken: String, nonce: String? = nil, name: IDTokenSignInRequest.PersonName? = nil,
        authorizationCode: String? = nil
    ) async throws -> SignInResult {
        let body = IDTokenSignInRequest(
            provider: provider, idToken: idToken, nonce: nonce, name: name, authorizationCode: authorizationCode)
        var request = makeRequest("POST", "auth/idtoken", body: body)
        request.setValue(AuthStrategy.bearer.rawValue, forHTTPHeaderField: HeaderName.authStrategy)
        let (data, response) = try await WireCoding.exchange(transport, request)
        let answer = try WireCoding.decodeSuccess(TokenResponse.self, data: data, response: response)
        guard let created = answer.created else { throw TokenClientError.invalidResponse }
        let received = try storedTokens(from: answer)
        adoptSignIn(received)
        return SignInResult(user: answer.user, created: created)
    }
}

/// What ``AuthSession/signIn(provider:idToken:nonce:name:authorizationCode:)`` answers.
public struct SignInResult: Sendable, Equatable {
    /// The signed-in account.
    public var user: User
    /// True when this sign-in created the account (a first sign-in), false for an existing one.
    public var created: Bool

    /// Creates a result.
    public init(user: User, created: Bool) {
        self.user = user
        self.created = created
    }
}
