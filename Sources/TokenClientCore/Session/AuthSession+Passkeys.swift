public import AuthAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Passkeys (issue 36): sign up and sign in with a passkey, add one to the signed-in account, list, rename and
/// delete them.
///
/// Each ceremony is two calls, options then verification, with the platform's authenticator in between; the
/// `…WithPasskey` methods and ``addPasskey(name:authenticator:)`` run all three with a ``PasskeyAuthenticator``.
/// Every method throws ``TokenClientError``; ``TokenClientError/passkeyFailure`` names the refusals an app acts on
/// (``PasskeyFailure/invalidCredential``, ``PasskeyFailure/lastSignInMethod``…). The sign-up and sign-in calls are
/// token endpoints like ``login(email:password:)``: the bearer strategy, and a session with a
/// ``DPoPConfiguration`` gets a session bound to its key.
extension AuthSession {
    /// Signs up with a new passkey: options, the authenticator's credential, then the sign-up, which signs this
    /// session in to the new account (see ``signUp(passkey:name:)``).
    /// - Parameters:
    ///   - email: the new account's email (unverified until confirmed), or nil for an account without one.
    ///   - name: the passkey's name (1–64 characters), or nil for the server's default, "Passkey".
    ///   - authenticator: what makes the credential.
    /// - Returns: the new account's user (``SignInResult/created`` true).
    /// - Throws: as ``passkeySignUpOptions(email:)`` and ``signUp(passkey:name:)``, and what the authenticator
    ///   throws (a cancellation, unchanged).
    @discardableResult
    public func signUpWithPasskey(
        email: String? = nil, name: String? = nil, authenticator: some PasskeyAuthenticator
    ) async throws -> SignInResult {
        let options = try await passkeySignUpOptions(email: email)
        let credential = try await authenticator.makeCredential(for: options)
        return try await signUp(passkey: credential, name: name)
    }

    /// Signs in with a passkey: options, the authenticator's assertion, then the sign-in (see
    /// ``signIn(passkey:)``).
    /// - Returns: the signed-in user.
    /// - Throws: as ``passkeySignInOptions()`` and ``signIn(passkey:)``, and what the authenticator throws.
    @discardableResult
    public func signInWithPasskey(authenticator: some PasskeyAuthenticator) async throws -> User {
        let options = try await passkeySignInOptions()
        let assertion = try await authenticator.makeAssertion(for: options)
        return try await signIn(passkey: assertion)
    }

    /// Adds a passkey to the signed-in account: options, the authenticator's credential, then the registration
    /// (see ``registerPasskey(_:name:)``).
    /// - Returns: the new passkey.
    /// - Throws: as ``passkeyRegistrationOptions()`` and ``registerPasskey(_:name:)``, and what the authenticator
    ///   throws.
    @discardableResult
    public func addPasskey(name: String? = nil, authenticator: some PasskeyAuthenticator) async throws -> PasskeyInfo {
        let options = try await passkeyRegistrationOptions()
        let credential = try await authenticator.makeCredential(for: options)
        return try await registerPasskey(credential, name: name)
    }

    /// Options for a new passkey on the signed-in account (`POST /auth/passkeys/registration/options`, with the
    /// session's credentials): `excludeCredentials` lists the account's passkeys.
    /// - Throws: ``TokenClientError/signedOut``, ``TokenClientError/server(status:body:)`` (404 when the server
    ///   offers no passkeys, 429), ``TokenClientError/transport(_:)``, ``TokenClientError/invalidResponse``.
    public func passkeyRegistrationOptions() async throws -> PasskeyCreationOptions {
        let request = makeRequest("POST", "auth/passkeys/registration/options", body: EmptyBody())
        let (data, response) = try await send(request)
        return try WireCoding.decodeSuccess(PasskeyCreationOptions.self, data: data, response: response)
    }

    /// Registers `credential`, made from ``passkeyRegistrationOptions()``, on the signed-in account (`POST
    /// /auth/passkeys/registration`, answered 201).
    /// - Parameter name: 1–64 characters, or nil for "Passkey".
    /// - Returns: the new passkey.
    /// - Throws: ``TokenClientError/server(status:body:)`` (401 `invalid_credential`: the credential failed a check,
    ///   its challenge was spent or another account's, or its id is already registered; 400 `invalid_request` for
    ///   a malformed credential or name), and as ``passkeyRegistrationOptions()``.
    @discardableResult
    public func registerPasskey(_ credential: PasskeyRegistrationCredential, name: String? = nil) async throws
        -> PasskeyInfo
    {
        let body = PasskeyRegistrationRequest(credential: credential, name: name)
        let (data, response) = try await send(makeRequest("POST", "auth/passkeys/registration", body: body))
        return try WireCoding.decodeSuccess(PasskeyResponse.self, data: data, response: response).passkey
    }

    /// Options for signing up with a passkey (`POST /auth/passkeys/signup/options`, without credentials): a new
    /// user handle, no excluded credentials. Leaves the current session alone.
    /// - Parameter email: the new account's email, or nil for an account without one.
    /// - Throws: ``TokenClientError/server(status:body:)`` (403 `registration_closed`, 409 `email_taken`, 400
    ///   `invalid_request` for a malformed address, 404, 429), ``TokenClientError/transport(_:)``,
    ///   ``TokenClientError/invalidResponse``.
    public func passkeySignUpOptions(email: String? = nil) async throws -> PasskeyCreationOptions {
        let request = makeRequest(
            "POST", "auth/passkeys/signup/options", body: PasskeySignUpOptionsRequest(email: email))
        let (data, response) = try await WireCoding.exchange(transport, request)
        return try WireCoding.decodeSuccess(PasskeyCreationOptions.self, data: data, response: response)
    }

    /// Creates the account of ``passkeySignUpOptions(email:)`` with `credential` (`POST /auth/passkeys/signup`)
    /// and signs in to it like ``login(email:password:)``: the tokens are stored, ``SessionState/signedIn(_:)``
    /// published. The account has no password.
    /// - Returns: the new user, `created` true.
    /// - Throws: ``TokenClientError/server(status:body:)`` (401 `invalid_credential`, 409 `email_taken` when the
    ///   address was taken meanwhile, 403 `registration_closed`, 400, 429), ``TokenClientError/transport(_:)``,
    ///   ``TokenClientError/invalidResponse``.
    @discardableResult
    public func signUp(passkey credential: PasskeyRegistrationCredential, name: String? = nil) async throws
        -> SignInResult
    {
        let answer = try await signIn(
            at: "auth/passkeys/signup", body: PasskeyRegistrationRequest(credential: credential, name: name))
        guard let created = answer.created else { throw TokenClientError.invalidResponse }
        return SignInResult(user: answer.user, created: created)
    }

    /// Options for signing in with a passkey (`POST /auth/passkeys/authentication/options`, without credentials):
    /// a challenge for any of the RP's passkeys (empty `allowCredentials`).
    /// - Throws: ``TokenClientError/server(status:body:)`` (404, 429), ``TokenClientError/transport(_:)``,
    ///   ``TokenClientError/invalidResponse``.
    public func passkeySignInOptions() async throws -> PasskeyRequestOptions {
        let request = makeRequest("POST", "auth/passkeys/authentication/options", body: EmptyBody())
        let (data, response) = try await WireCoding.exchange(transport, request)
        return try WireCoding.decodeSuccess(PasskeyRequestOptions.self, data: data, response: response)
    }

    /// Signs in with `assertion`, made from ``passkeySignInOptions()`` (`POST /auth/passkeys/authentication`),
    /// like ``login(email:password:)``: the tokens are stored, ``SessionState/signedIn(_:)`` published. A refusal
    /// leaves the current session as it was.
    /// - Returns: the signed-in user.
    /// - Throws: ``TokenClientError/server(status:body:)`` (401 `invalid_credential`, 400, 429),
    ///   ``TokenClientError/transport(_:)``, ``TokenClientError/invalidResponse``.
    @discardableResult
    public func signIn(passkey assertion: PasskeyAssertionCredential) async throws -> User {
        try await signIn(at: "auth/passkeys/authentication", body: PasskeyAuthenticationRequest(credential: assertion))
            .user
    }

    /// The signed-in account's passkeys, oldest first (`GET /auth/passkeys`).
    /// - Throws: ``TokenClientError/signedOut``, ``TokenClientError/server(status:body:)``,
    ///   ``TokenClientError/transport(_:)``, ``TokenClientError/invalidResponse``.
    public func passkeys() async throws -> [PasskeyInfo] {
        let (data, response) = try await send(makeRequest("GET", "auth/passkeys"))
        return try WireCoding.decodeSuccess(PasskeyListResponse.self, data: data, response: response).passkeys
    }

    /// Renames one of the account's passkeys (`PATCH /auth/passkeys/{id}`).
    /// - Parameters:
    ///   - id: the passkey's ``AuthAPI/PasskeyInfo/id``.
    ///   - name: 1–64 characters after trimming.
    /// - Returns: the renamed passkey.
    /// - Throws: ``TokenClientError/server(status:body:)`` (404 `not_found` for a passkey that is not the
    ///   account's, 400 `invalid_request` for a bad name), and as ``passkeys()``.
    @discardableResult
    public func renamePasskey(id: String, to name: String) async throws -> PasskeyInfo {
        let request = makeRequest("PATCH", Self.passkeyPath(id), body: PasskeyRenameRequest(name: name))
        let (data, response) = try await send(request)
        return try WireCoding.decodeSuccess(PasskeyResponse.self, data: data, response: response).passkey
    }

    /// Deletes one of the account's passkeys (`DELETE /auth/passkeys/{id}`); the authenticator still holds it,
    /// but the server no longer accepts it.
    /// - Throws: ``TokenClientError/server(status:body:)`` (409 `last_sign_in_method` when the account would keep
    ///   no way to sign in, 404 `not_found`), and as ``passkeys()``.
    public func deletePasskey(id: String) async throws {
        let (data, response) = try await send(makeRequest("DELETE", Self.passkeyPath(id)))
        try WireCoding.requireSuccess(data: data, response: response)
    }

    /// `auth/passkeys/{id}`, the id percent-encoded beyond base64url's alphabet, so that no id leaves that path.
    static func passkeyPath(_ id: String) -> String {
        "auth/passkeys/" + PercentEncoding.encode(id, keeping: PercentEncoding.isBase64URL)
    }
}

/// `{}`: the body of the options calls that take none.
private struct EmptyBody: Encodable {}
