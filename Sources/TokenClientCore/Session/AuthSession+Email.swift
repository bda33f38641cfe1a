public import AuthAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The email-code flows (issue 32): verification, password reset and change, sign-in codes, email change.
///
/// Every method throws ``TokenClientError``; ``TokenClientError/emailFailure`` names the refusals an app shows
/// (``EmailFlowFailure/invalidCode``, ``EmailFlowFailure/weakPassword``…). The two request methods without a session
/// (``requestPasswordReset(email:)``, ``requestSignInCode(email:)``) succeed whether or not an account has the
/// address: the server does not say.
extension AuthSession {
    /// Asks for a verification code to the signed-in account's email (`POST /auth/email/verification`). An email
    /// already verified gets no message; the call succeeds either way.
    /// - Throws: ``TokenClientError/signedOut``, ``TokenClientError/server(status:body:)`` (429 beyond the
    ///   per-address send limit, 503 when the server sends no email), ``TokenClientError/transport(_:)``.
    public func requestEmailVerification() async throws {
        let (data, response) = try await send(makeRequest("POST", "auth/email/verification"))
        try WireCoding.requireSuccess(data: data, response: response)
    }

    /// Confirms the account's email with the code sent to it (`POST /auth/email/verification/confirm`). The
    /// session's user is updated (``SessionState/signedIn(_:)`` with `emailVerified` true); access tokens carry the
    /// email from the next refresh.
    /// - Returns: the account, `emailVerified` true.
    /// - Throws: ``TokenClientError/server(status:body:)`` (400 `invalid_code`), and like
    ///   ``requestEmailVerification()``.
    @discardableResult
    public func confirmEmailVerification(code: String) async throws -> User {
        try await confirmCode("auth/email/verification/confirm", code: code)
    }

    /// Asks for a password-reset code (`POST /auth/password/reset`). Succeeds whether or not an account has the
    /// address. Needs no session and leaves the current one alone.
    /// - Throws: ``TokenClientError/server(status:body:)`` (400 `invalid_request` for a malformed address, 429 from
    ///   one client address, 503), ``TokenClientError/transport(_:)``.
    public func requestPasswordReset(email: String) async throws {
        try await post("auth/password/reset", EmailRequest(email: email))
    }

    /// Sets a new password with the emailed code (`POST /auth/password/reset/confirm`) and signs in with the new
    /// session it answers, like ``login(email:password:)``; the account's other sessions end.
    /// - Returns: the signed-in user (its email now verified).
    /// - Throws: ``TokenClientError/server(status:body:)`` (400 `invalid_code`, 400 `weak_password` or
    ///   `invalid_request` for the new password), ``TokenClientError/transport(_:)``,
    ///   ``TokenClientError/invalidResponse``.
    @discardableResult
    public func confirmPasswordReset(email: String, code: String, newPassword: String) async throws -> User {
        let body = PasswordResetConfirmRequest(email: email, code: code, newPassword: newPassword)
        return try await signIn(at: "auth/password/reset/confirm", body: body).user
    }

    /// Changes the signed-in account's password (`POST /auth/password/change`); this session stays, the account's
    /// other sessions end.
    /// - Throws: ``TokenClientError/server(status:body:)`` (401 `invalid_credentials` for a wrong current password,
    ///   400 `weak_password`, 429), ``TokenClientError/signedOut``, ``TokenClientError/transport(_:)``.
    public func changePassword(current: String, new: String) async throws {
        let request = makeRequest(
            "POST", "auth/password/change", body: PasswordChangeRequest(currentPassword: current, newPassword: new))
        let (data, response) = try await send(request)
        try WireCoding.requireSuccess(data: data, response: response)
    }

    /// Asks for a sign-in code (`POST /auth/email/code`). Succeeds whether or not an account has the address.
    /// - Throws: ``TokenClientError/server(status:body:)`` (404 `not_found` when the server does not offer
    ///   sign-in codes, 429, 503), ``TokenClientError/transport(_:)``.
    public func requestSignInCode(email: String) async throws {
        try await post("auth/email/code", EmailRequest(email: email))
    }

    /// Signs in with an emailed code (`POST /auth/email/code/confirm`), storing the session like
    /// ``login(email:password:)``. An unknown address gets a new account without a password.
    /// - Returns: the user and whether this sign-in created the account.
    /// - Throws: ``TokenClientError/server(status:body:)`` (400 `invalid_code`, 403 `registration_closed`, 404),
    ///   ``TokenClientError/transport(_:)``, ``TokenClientError/invalidResponse``.
    @discardableResult
    public func signIn(email: String, code: String) async throws -> SignInResult {
        let answer = try await signIn(
            at: "auth/email/code/confirm", body: EmailCodeSignInRequest(email: email, code: code))
        guard let created = answer.created else { throw TokenClientError.invalidResponse }
        return SignInResult(user: answer.user, created: created)
    }

    /// Asks for a code to `newEmail` (`POST /auth/email/change`); the account moves once
    /// ``confirmEmailChange(code:)`` presents it.
    /// - Parameter currentPassword: required when the account has a password; nil for one without.
    /// - Throws: ``TokenClientError/server(status:body:)`` (409 `email_taken`, 401 `invalid_credentials`, 429),
    ///   ``TokenClientError/signedOut``, ``TokenClientError/transport(_:)``.
    public func requestEmailChange(to newEmail: String, currentPassword: String?) async throws {
        let body = EmailChangeRequest(newEmail: newEmail, currentPassword: currentPassword)
        let (data, response) = try await send(makeRequest("POST", "auth/email/change", body: body))
        try WireCoding.requireSuccess(data: data, response: response)
    }

    /// Moves the account to the new address with the code sent there (`POST /auth/email/change/confirm`); the
    /// session's user is updated.
    /// - Returns: the account with its new, verified email.
    /// - Throws: ``TokenClientError/server(status:body:)`` (400 `invalid_code`, 409 `email_taken`), and like
    ///   ``requestEmailChange(to:currentPassword:)``.
    @discardableResult
    public func confirmEmailChange(code: String) async throws -> User {
        try await confirmCode("auth/email/change/confirm", code: code)
    }

    /// Posts `body` without credentials and requires a 2xx answer.
    private func post(_ path: String, _ body: some Encodable) async throws {
        let (data, response) = try await WireCoding.exchange(transport, makeRequest("POST", path, body: body))
        try WireCoding.requireSuccess(data: data, response: response)
    }

    /// Posts a code with the session's credentials; the answer's user replaces the session's when the session
    /// still belongs to that account.
    private func confirmCode(_ path: String, code: String) async throws -> User {
        let startedIn = generation
        let request = makeRequest("POST", path, body: EmailCodeRequest(code: code))
        let (data, response) = try await send(request)
        let user = try WireCoding.decodeSuccess(UserResponse.self, data: data, response: response).user
        if generation == startedIn, var current = tokens, current.user?.id == user.id {
            current.user = user
            replaceTokens(current)
        }
        return user
    }

    /// Posts a sign-in body with the bearer strategy and adopts the answered session, as a login does (the email-code
    /// and password-reset sign-ins, the passkey sign-up and sign-in).
    func signIn(at path: String, body: some Encodable) async throws -> TokenResponse {
        await retryPendingLogouts()
        var request = makeRequest("POST", path, body: body)
        request.setValue(AuthStrategy.bearer.rawValue, forHTTPHeaderField: HeaderName.authStrategy)
        let (data, response) = try await WireCoding.exchange(transport, request)
        let answer = try WireCoding.decodeSuccess(TokenResponse.self, data: data, response: response)
        adoptSignIn(try storedTokens(from: answer))
        return answer
    }
}
