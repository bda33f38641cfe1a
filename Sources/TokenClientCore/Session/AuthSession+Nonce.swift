import AuthAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthSession {
    /// Fetches a single-use nonce for one native sign-in (`POST /auth/nonce`), before asking the identity provider
    /// for its ID token.
    ///
    /// The server accepts an ID token only when its nonce is one it issued and that was not used yet
    /// (`identity.requireServerNonce`, on by default): give ``SignInNonce/sha256`` to Sign in with Apple (or
    /// ``SignInNonce/raw`` to Google Sign-In), then send ``SignInNonce/raw`` with the token to
    /// ``signIn(provider:idToken:nonce:name:authorizationCode:)``. A nonce expires after ``SignInNonce/expiresIn`` seconds (600)
    /// and is consumed by the sign-in that sends it, accepted or not: fetch a new one for every attempt.
    ///
    /// ```swift
    /// let nonce = try await session.signInNonce()
    /// let request = ASAuthorizationAppleIDProvider().createRequest()
    /// request.nonce = nonce.sha256
    /// // … ASAuthorizationController gives an ASAuthorizationAppleIDCredential …
    /// try await session.signIn(provider: "apple", idToken: idToken, nonce: nonce.raw)
    /// ```
    ///
    /// - Returns: the raw nonce, its SHA-256 hex and its lifetime.
    /// - Throws: ``TokenClientError/server(status:body:)`` (429 past the server's per-address limit, 503 when too
    ///   many sign-ins are pending), ``TokenClientError/transport(_:)``, ``TokenClientError/invalidResponse``.
    public func signInNonce() async throws -> SignInNonce {
        let (data, response) = try await WireCoding.exchange(transport, makeRequest("POST", "auth/nonce"))
        let answer = try WireCoding.decodeSuccess(NonceResponse.self, data: data, response: response)
        guard !answer.nonce.isEmpty else { throw TokenClientError.invalidResponse }
        return SignInNonce(raw: answer.nonce, expiresIn: answer.expiresIn)
    }
}

/// A server-issued nonce for one native sign-in (``AuthSession/signInNonce()``).
public struct SignInNonce: Sendable, Equatable {
    /// The nonce as the server issued it: send it with the ID token, and give it to SDKs that take the raw
    /// value (Google Sign-In).
    public let raw: String
    /// The lowercase hex SHA-256 of ``raw`` (64 characters): what `ASAuthorizationAppleIDRequest.nonce` wants.
    public let sha256: String
    /// Seconds the server keeps the nonce (600).
    public let expiresIn: Int

    /// A nonce value; ``sha256`` is computed from `raw`.
    public init(raw: String, expiresIn: Int) {
        self.raw = raw
        self.expiresIn = expiresIn
        let digest = PKCE.sha256(Array(raw.utf8))
        let digits = Array("0123456789abcdef")
        var hex = ""
        hex.reserveCapacity(digest.count * 2)
        for byte in digest {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        sha256 = hex
    }
}
