import AuthAPI
import HTTPServer
import Logging
import Mail
import Store

extension EmailFlows {
    /// `POST /auth/password/reset` `{"email"}` → `202 {}` whether or not an account has the address.
    ///
    /// The per-address limits count every request, known address or not, and a limited request gets the same
    /// `202 {}` without a message; an unknown or disabled address gets it without a message too. A known one
    /// queues a `password_reset` code (the request never talks to the mail server, so its timing tells nothing
    /// about the outcome of a delivery).
    func requestPasswordReset(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        _ = try mail()
        try await auth.limitAddress(request)
        let email = try Self.address(try EmailRequest(body: request).email)
        guard try await sendLimit(email, purpose: .passwordReset) == nil else { return Self.accepted }
        // An unknown or disabled address gets a decoy: the same work and one durable write, nothing sent, so neither
        // the answer nor its timing (nor a failing database) tells it from an active account's.
        let user = try await findAccount(byEmail: email)
        let active = user.map { !$0.isDisabled } ?? false
        try await issueQuietly(
            .passwordReset, kind: .passwordReset, userID: user?.id, email: email, context: context, decoy: !active)
        return Self.accepted
    }

    /// `POST /auth/password/reset/confirm` `{"email", "code", "newPassword"}` → 200, the login body of a new
    /// session (`X-Auth-Strategy` as for login). Every other session of the account is revoked, and the email
    /// counts as verified (the code proved it). `400 weak_password` (checked first, so it costs no try),
    /// `400 invalid_code`.
    func confirmPasswordReset(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        _ = try mail()
        try await auth.limitAddress(request)
        let strategy = try AuthService.strategy(of: request)
        let body = try PasswordResetConfirmRequest(body: request)
        let binding = try await auth.authenticator.dpop.bindingForNewSession(
            request, strategy: strategy, now: auth.now())
        let email = try Self.address(body.email)
        let password = try auth.acceptedNewPassword(body.newPassword)
        let code = try await redeem(.passwordReset, subject: email, code: body.code)
        let found = try await findAccount(byEmail: email)
        // The account must still be the one the code was issued for, and active.
        guard let user = found, user.id == code.userID, !user.isDisabled else { throw ServiceError.invalidCode }
        context.accessLogMetadata["user.id"] = .string(user.id)
        let hash = try await auth.newHash(password)
        let verified: Store.User
        do {
            let revoked = try await auth.users.replacePassword(
                userID: user.id, hash: hash, keeping: nil, now: auth.now())
            if revoked > 0 { auth.metrics.sessionsRevoked.increment(.passwordChanged, by: revoked) }
            verified = try await auth.users.markEmailVerified(userID: user.id, source: .emailCode, now: auth.now())
        } catch {
            throw AuthService.mapStore(error)
        }
        // The new password works at once, whatever failures the old one collected.
        try? await auth.limits.accountFailures.reset(email)
        let session = try await auth.openSession(for: verified, request, dpopThumbprint: binding)
        auth.metrics.logins.increment(.succeeded)
        return try auth.tokenResponse(user: verified, session: session, counter: session.counter, strategy: strategy)
    }

    /// `POST /auth/password/change` (bearer) `{"currentPassword", "newPassword"}` → `200 {}`: every other session of
    /// the account is revoked, the caller's stays. A wrong current password is `401 invalid_credentials` and
    /// counts as a failed login; the new one follows the password rules (`400 weak_password`).
    func changePassword(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let caller = try await signedIn(request, context, needsMail: false)
        let body = try PasswordChangeRequest(body: request)
        let newPassword = try auth.acceptedNewPassword(body.newPassword)
        let user = try await account(caller.userID)
        _ = try await auth.checkCurrentPassword(body.currentPassword, of: user)
        let hash = try await auth.newHash(newPassword)
        do {
            let revoked = try await auth.users.replacePassword(
                userID: user.id, hash: hash, keeping: caller.sessionID, now: auth.now())
            if revoked > 0 { auth.metrics.sessionsRevoked.increment(.passwordChanged, by: revoked) }
        } catch {
            throw AuthService.mapStore(error)
        }
        return .json(bytes: Array("{}".utf8), headers: .noStore)
    }
}
