import AuthAPI
import HTTPServer
import Logging
import PasswordHash
import Store

extension AuthService {
    /// `POST /auth/login`: `{"email", "password"}` → 200 tokens (bearer) or cookies (cookie mode).
    ///
    /// Unknown emails, disabled accounts, accounts without a password (made from an identity) and wrong
    /// passwords answer the same 401 after the same work: the password is verified against a dummy hash of the
    /// same cost when there is no usable account or stored hash. Failures
    /// count per account (429 beyond `rateLimit.loginFailuresPerAccount` in `rateLimit.loginWindowSeconds`);
    /// success clears them, and a hash made with an older cost is upgraded.
    func login(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        do {
            try await limitAddress(request)
        } catch {
            if case .tooManyRequests = error { metrics.logins.increment(.rateLimited) }
            throw error
        }
        let strategy = try Self.strategy(of: request)
        let body = try LoginRequest(body: request)
        // The proof is checked before the password: a bad one costs no hashing.
        let binding = try await authenticator.dpop.bindingForNewSession(request, strategy: strategy, now: now())
        let rawEmail = body.email
        let rawPassword = body.password
        guard let email = EmailAddress(rawEmail) else {
            throw ServiceError.invalidRequest("The email address is not valid.")
        }
        // A shared counter store that cannot answer refuses the login (503): failing open would let a password
        // be guessed without limit for as long as the outage lasts.
        let failures: RateLimiter.Decision
        do {
            failures = try await limits.accountFailures.check(email.value)
        } catch {
            throw Self.rateLimitUnavailable(error)
        }
        if case .limited(let seconds) = failures {
            metrics.logins.increment(.rateLimited)
            throw ServiceError.tooManyRequests(retryAfter: seconds)
        }
        let user: Store.User?
        do {
            user = try await users.find(byEmail: email.value)
        } catch {
            throw Self.mapStore(error)
        }
        // A password outside the length policy cannot match a stored hash, but it still costs one verify.
        let password = policy.boundedPassword(rawPassword)
        let hasher = self.hasher
        let storedHash = user.flatMap { $0.isDisabled ? nil : $0.passwordHash }
        let verified: Bool
        do {
            verified = try await hashed { () throws(PasswordHashError) -> Bool in
                let hasher = try hasher.get()
                guard let password, let storedHash else { return hasher.verifyDummy(password ?? Password("")) }
                return hasher.verify(password, against: storedHash)
            }
        } catch {
            metrics.logins.increment(.overloaded)
            throw error
        }
        guard verified, let user, let password, let storedHash else {
            do {
                try await limits.accountFailures.record(email.value)
            } catch {
                // Unrecorded, a failure would not count: refuse rather than answer 401 (fail closed).
                throw Self.rateLimitUnavailable(error)
            }
            metrics.logins.increment(.failed)
            throw ServiceError.invalidCredentials
        }
        do {
            try await limits.accountFailures.reset(email.value)
        } catch {
            // The password was right: the stale failures only expire later than they would have.
            context.logger.warning("login failures not reset", metadata: ["error": "\(error)"])
        }
        context.accessLogMetadata["user.id"] = .string(user.id)
        // Built by the verify above (on the hashing pool), so this never hashes here.
        if hasher.existing?.needsRehash(storedHash) ?? false {
            await upgradeHash(of: user, password: password, context: context)
        }
        let session = try await openSession(for: user, request, dpopThumbprint: binding)
        metrics.logins.increment(.succeeded)
        return try tokenResponse(user: user, session: session, counter: session.counter, strategy: strategy)
    }

    /// Re-hashes with the configured cost; a failure is logged and the login goes on with the old hash.
    private func upgradeHash(of user: Store.User, password: Password, context: RequestContext) async {
        let hasher = self.hasher
        do {
            let hash = try await hashed { () throws(PasswordHashError) -> String in try hasher.get().hash(password) }
            try await users.updatePasswordHash(userID: user.id, hash: hash)
            context.logger.info("password hash upgraded to the configured cost", metadata: ["user.id": "\(user.id)"])
        } catch {
            context.logger.warning("password hash upgrade failed", metadata: ["error": "\(error)"])
        }
    }
}
