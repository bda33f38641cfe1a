import PasswordHash
import Store

extension AuthService {
    /// Checks the password a signed-in user gave to prove it is them (`POST /auth/password/change`,
    /// `POST /auth/email/change`), as a login checks it: within the per-account failure limit (429 beyond it),
    /// on the hashing pool, against a dummy hash when the account has no password; a wrong one is `401
    /// invalid_credentials` and counts as a failed login (`tokenvend_logins_total{result="failed"}` too).
    /// - Returns: the password, accepted.
    func checkCurrentPassword(_ raw: String, of user: Store.User) async throws -> Password {
        let key = user.email ?? user.id
        let failures: RateLimiter.Decision
        do {
            failures = try await limits.accountFailures.check(key)
        } catch {
            throw Self.rateLimitUnavailable(error)
        }
        if case .limited(let seconds) = failures {
            metrics.logins.increment(.rateLimited)
            throw ServiceError.tooManyRequests(retryAfter: seconds)
        }
        let password = policy.boundedPassword(raw)
        let hasher = self.hasher
        let storedHash = user.passwordHash
        let verified = try await hashed { () throws(PasswordHashError) -> Bool in
            let hasher = try hasher.get()
            guard let password, let storedHash else { return hasher.verifyDummy(password ?? Password("")) }
            return hasher.verify(password, against: storedHash)
        }
        guard verified, let password else {
            do {
                try await limits.accountFailures.record(key)
            } catch {
                throw Self.rateLimitUnavailable(error)
            }
            metrics.logins.increment(.failed)
            throw ServiceError.invalidCredentials
        }
        try? await limits.accountFailures.reset(key)
        return password
    }

    /// `raw` as a new password under the policy: 400 `invalid_request` outside the length bounds, 400
    /// `weak_password` for a common one.
    func acceptedNewPassword(_ raw: String) throws(ServiceError) -> Password {
        switch policy.newPassword(raw) {
        case .success(let accepted):
            return accepted
        case .failure(.length):
            throw .invalidRequest("The password must be \(policy.minLength) to \(policy.maxLength) characters.")
        case .failure(.common):
            throw .weakPassword
        }
    }

    /// The Argon2id hash of `password`, made on the hashing pool (503 when it is full).
    func newHash(_ password: Password) async throws -> String {
        let hasher = self.hasher
        return try await hashed { () throws(PasswordHashError) -> String in try hasher.get().hash(password) }
    }
}
