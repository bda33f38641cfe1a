import AuthAPI
import Foundation
import HTTPServer
import Logging
import PasswordHash
import Store

/// The account and session endpoints of API.md: register, login, refresh, logout, me, sessions.
///
/// Handlers that wait (Argon2id on the hashing pool, SQLite writes) are async; `me` and the session checks of
/// every authenticated request are synchronous reads. All failures are `ServiceError`s, mapped to HTTP in one
/// place.
struct AuthService: Sendable {
    let users: UserStore
    let sessions: SessionStore
    let hasher: LazyPasswordHasher
    let hashingPool: HashingPool
    let policy: PasswordPolicy
    let accessTokens: AccessTokenIssuer
    let refreshTokens: RefreshTokenCodec
    let authenticator: Authenticator
    let limits: Limits
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
        let accountFailures: RateLimiter
        let addressRequests: RateLimiter
    }

    /// Counts a token-issuing request against its client address; 429 beyond `requestsPerAddressPerMinute`.
    func limitAddress(_ request: HTTPRequest) throws(ServiceError) {
        let decision = limits.addressRequests.acquire(Self.addressKey(of: request), now: monotonicSeconds())
        if case .limited(let seconds) = decision { throw .tooManyRequests(retryAfter: seconds) }
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

    /// A store failure as the client sees it: 503 when the database cannot take the write, else rethrown.
    static func mapStore(_ error: StoreError) -> any Error {
        if error.isUnavailable {
            return ServiceError.unavailable("The database is unavailable; retry later.", retryAfter: 5)
        }
        return error
    }

    /// The wire form of a stored user.
    static func wireUser(_ user: Store.User) -> AuthAPI.User {
        AuthAPI.User(id: user.id, email: user.email, role: user.role, tenantId: user.tenantID)
    }
}

/// Seconds on a monotonic clock, for the rate limiters.
func monotonicSeconds() -> Double {
    let elapsed = processStart.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

private let processStart = ContinuousClock.now
