import AuthAPI
import HTTPServer
import Logging
import PasswordHash
import Store

extension AuthService {
    /// `POST /auth/register`: `{"email", "password", "tenantId"?}` → 201 `{"user"}`.
    ///
    /// `tenantId` may only be absent or `null`: a tenant is signed into every access token and vendor token, so
    /// only the operator (`tokenvend users add --tenant`, `users set-tenant`) sets one, never the caller.
    func register(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        guard limits.registrationEnabled else { throw ServiceError.registrationClosed }
        try await limitAddress(request)
        let body = try RegisterRequest(body: request)
        guard let email = EmailAddress(body.email) else {
            throw ServiceError.invalidRequest("The email address is not valid.")
        }
        let rawPassword = body.password
        guard body.tenantID == nil else {
            throw ServiceError.invalidRequest("tenantId is set by the operator, not at registration; leave it out.")
        }
        let password: Password
        switch policy.newPassword(rawPassword) {
        case .success(let accepted):
            password = accepted
        case .failure(.length):
            throw ServiceError.invalidRequest(
                "The password must be \(policy.minLength) to \(policy.maxLength) characters.")
        case .failure(.common):
            throw ServiceError.weakPassword
        }
        let hasher = self.hasher
        let hash = try await hashed { () throws(PasswordHashError) -> String in try hasher.get().hash(password) }
        let user: Store.User
        do {
            user = try await users.create(email: email.value, passwordHash: hash, role: "user", tenantID: nil)
        } catch .emailTaken {
            throw ServiceError.emailTaken
        } catch {
            throw Self.mapStore(error)
        }
        context.accessLogMetadata["user.id"] = .string(user.id)
        return try .json(status: HTTPStatus(code: 201), RegisterResponse(user: Self.wireUser(user)))
    }

    /// Runs Argon2id work on the bounded hashing pool; a full queue is 503 with `Retry-After`.
    ///
    /// The 503 is sent after a short pause (`overloadPause`, 100 ms; the task sleeps, no thread waits): a
    /// client that retries at once, ignoring `Retry-After`, would otherwise turn the cheap rejection itself
    /// into the load, at the expense of the token endpoints sharing the event loop.
    func hashed<T: Sendable>(_ work: @escaping @Sendable () throws(PasswordHashError) -> T) async throws -> T {
        do {
            return try await hashingPool.run(work)
        } catch .overloaded {
            try? await Task.sleep(for: Self.overloadPause)
            throw ServiceError.unavailable("Too many password checks in progress; retry shortly.", retryAfter: 1)
        } catch {
            throw error
        }
    }

    /// How long an overloaded login or registration waits before its 503.
    static let overloadPause = Duration.milliseconds(100)
}
