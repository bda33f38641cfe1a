import AuthAPI
import FoundationEssentials
import HTTPServer
import Logging
import PasswordHash
import Store

/// The account and session endpoints of API.md: register, login, ID-token sign-in, refresh, logout, me, sessions.
///
/// Works on any store backend (`any UserStoring`, `any SessionStoring`). Handlers that wait (Argon2id on the
/// hashing pool, database writes, PostgreSQL reads) are async; `me` answers on the event loop when the store has
/// the session at hand (see `Authenticator`). All failures are `ServiceError`s, mapped to HTTP in one place.
struct AuthService: Sendable {
    let users: any UserStoring
    let sessions: any SessionStoring
    let hasher: LazyPasswordHasher
    let hashingPool: HashingPool
    let policy: PasswordPolicy
    let accessTokens: AccessTokenIssuer
    let refreshTokens: RefreshTokenCodec
    let authenticator: Authenticator
    let limits: Limits
    /// `POST /auth/idtoken`'s verifiers and identities.
    let identity: IdentitySignIn
    /// The browser flow's providers, flows and codes (`GET /auth/oauth/{provider}`, `POST /auth/token`).
    let browser: BrowserSignIn
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date

    /// Lifetimes, switches and rate limiters from the configuration.
    struct Limits: Sendable {
        let refreshTTL: Duration
        let reuseGrace: Duration
        let sessionMaxLifetime: Duration
        /// `session.maxPerUser`: a login revokes the user's least recently used live sessions beyond it.
        let maxSessionsPerUser: Int
        let registrationEnabled: Bool
        /// Failed logins per account: in memory (one instance) or shared through the store.
        let accountFailures: any RateLimiting
        /// Refused ID tokens whose signature held, per provider and subject (`<provider>:<sub>`), with the
        /// per-account budget (`rateLimit.loginFailuresPerAccount`) in a bucket of their own.
        let idTokenSubjectFailures: any RateLimiting
        /// Every refused ID token per client address (`rateLimit.idTokenFailuresPerAddress`, a budget far above
        /// the per-account one, since many users may share one address behind carrier NAT).
        let idTokenAddressFailures: any RateLimiting
        /// Token-issuing requests per client address: in memory or shared through the store.
        let addressRequests: any RateLimiting
        /// Browser sign-ins started per client address within `identity.flowLifetimeSeconds`
        /// (`identity.maxPendingFlowsPerAddress`): a bound on the address's flows under way.
        let flowStarts: any RateLimiting
    }

    /// Counts a token-issuing request against its client address; 429 beyond `requestsPerAddressPerMinute`.
    /// A shared counter store that cannot answer is a 503 (fail closed; see `SharedRateLimiter`).
    /// - Parameter bucket: a prefix of the key for a budget of its own (`POST /auth/nonce`); empty for the one
    ///   budget of register, login and sign-ins.
    func limitAddress(_ request: HTTPRequest, bucket: String = "") async throws(ServiceError) {
        let decision: RateLimiter.Decision
        do {
            decision = try await limits.addressRequests.acquire(bucket + Self.addressKey(of: request))
        } catch {
            throw Self.rateLimitUnavailable(error)
        }
        if case .limited(let seconds) = decision { throw .tooManyRequests(retryAfter: seconds) }
    }

    /// 503 for a rate-limit counter store that cannot answer.
    static func rateLimitUnavailable(_ error: StoreError) -> ServiceError {
        .unavailable(
            "The rate-limit store is unavailable; retry later.", retryAfter: StoreFailure.retryAfter(error, default: 5))
    }

    /// The rate-limit key of the request's client address (never its port, so new connections share it): an
    /// IPv4 address as is, an IPv6 address by its /64, the smallest network one subscriber is usually given
    /// (RFC 6177), since a host picks its own addresses within it.
    static func addressKey(of request: HTTPRequest) -> String {
        guard let address = request.clientAddress else { return request.remoteAddress }
        return address.isIPv4 ? address.description : CIDR(address: address, prefixLength: 64).description
    }

    /// The strategy the client asked for with `X-Auth-Strategy` (bearer when absent).
    static func strategy(of request: HTTPRequest) throws(ServiceError) -> AuthStrategy {
        guard let raw = request.headers[HeaderName.authStrategy] else { return .bearer }
        guard let strategy = AuthStrategy(rawValue: raw.lowercased()) else {
            throw .invalidRequest("X-Auth-Strategy must be bearer or cookie.")
        }
        return strategy
    }

    /// A store failure as the client sees it: 503 when the database cannot take the operation (with the
    /// `Retry-After` of `StoreFailure`: 1 for a lock or pool timeout, 2 when PostgreSQL is unreachable, 5 for
    /// SQLite's conditions), else rethrown (a 500).
    static func mapStore(_ error: StoreError) -> any Error {
        StoreFailure.unavailable(error, message: "The database is unavailable; retry later.", default: 5) ?? error
    }

    /// The wire form of a stored user.
    static func wireUser(_ user: Store.User) -> AuthAPI.User {
        AuthAPI.User(
            id: user.id, email: user.email, emailVerified: user.email != nil && user.isEmailVerified, role: user.role,
            tenantID: user.tenantID)
    }
}

/// Seconds on a monotonic clock, for the rate limiters.
func monotonicSeconds() -> Double {
    let elapsed = processStart.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

private let processStart = ContinuousClock.now
