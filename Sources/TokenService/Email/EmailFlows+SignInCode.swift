import AuthAPI
import FoundationEssentials
import HTTPServer
import Logging
import Mail
import Store

extension EmailFlows {
    /// `POST /auth/email/code` `{"email"}` → `202 {}`, a `sign_in` code; 404 unless `email.signInCodes`.
    ///
    /// Enumeration-safe as the reset: the same answer for a known, an unknown, a disabled or a limited address.
    /// An unknown address gets a code too (it signs up, or answers `403 registration_closed` when registration is
    /// closed by then); a disabled account's gets a decoy that sends nothing.
    func requestSignInCode(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        guard settings.signInCodes else { throw ServiceError.notFound }
        _ = try mail()
        try await auth.limitAddress(request)
        let email = try Self.address(try EmailRequest(body: request).email)
        guard try await sendLimit(email, purpose: .signIn) == nil else { return Self.accepted }
        let user = try await findAccount(byEmail: email)
        // A disabled account's address gets a decoy (the same work and write, nothing sent), as in the reset.
        let disabled = user?.isDisabled ?? false
        try await issueQuietly(
            .signIn, kind: .signIn, userID: user?.id, email: email, context: context, decoy: disabled)
        return Self.accepted
    }

    /// `POST /auth/email/code/confirm` `{"email", "code"}` → 200, the login body plus `created` (`X-Auth-Strategy`
    /// as for login); the email counts as verified. Without an account, one without a password is created when
    /// registration is open (`created: true`), else `403 registration_closed`. 404 unless `email.signInCodes`.
    func confirmSignInCode(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        guard settings.signInCodes else { throw ServiceError.notFound }
        _ = try mail()
        try await auth.limitAddress(request)
        let strategy = try AuthService.strategy(of: request)
        let body = try EmailCodeSignInRequest(body: request)
        let binding = try await auth.authenticator.dpop.bindingForNewSession(
            request, strategy: strategy, now: auth.now())
        let email = try Self.address(body.email)
        _ = try await redeem(.signIn, subject: email, code: body.code)
        let (user, created) = try await signInAccount(email)
        context.accessLogMetadata["user.id"] = .string(user.id)
        let session = try await auth.openSession(for: user, request, dpopThumbprint: binding)
        auth.metrics.logins.increment(.succeeded)
        return try auth.tokenResponse(
            user: user, session: session, counter: session.counter, strategy: strategy, created: created)
    }

    /// The verified account of `email`, created (without a password) when there is none and registration is open.
    private func signInAccount(_ email: String) async throws -> (Store.User, Bool) {
        let users = auth.users
        let now = auth.now()
        do {
            var created = false
            var user = try await users.find(byEmail: email)
            if user == nil {
                guard auth.limits.registrationEnabled else { throw ServiceError.registrationClosed }
                do {
                    user = try await users.create(
                        id: UUID().uuidString.lowercased(), email: email, passwordHash: nil, role: "user",
                        tenantID: nil, emailVerifiedAt: nil, now: now)
                    created = true
                } catch .emailTaken {
                    // A racing sign-up (or sign-in code) made it first: sign in to that one.
                    user = try await users.find(byEmail: email)
                }
            }
            guard let account = user, !account.isDisabled else { throw ServiceError.invalidCode }
            return (try await users.markEmailVerified(userID: account.id, source: .emailCode, now: now), created)
        } catch let error as StoreError {
            throw AuthService.mapStore(error)
        }
    }
}
