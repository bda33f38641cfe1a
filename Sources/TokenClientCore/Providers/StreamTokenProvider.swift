import AuthAPI
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Supplies Bloomreach Stream JWTs from `POST /stream-token` for one set of customer ids.
///
/// The token's `exp` claim (read from the JWT payload, not verified) schedules the refresh: it is served
/// from cache until `margin` seconds (default 60) before `exp`, as the Bloomreach SDK asks, and concurrent
/// callers coalesce onto one fetch. Hand the token to `Exponea.shared.setSdkAuthToken(_:)`, and call
/// ``token()`` again from the SDK's JWT error handler (``invalidate()`` first for `.invalid` / `.expired`).
/// The cached token is dropped when the session's ``AuthenticatedTransport/tokenOwner`` changes (for an
/// ``AuthSession``, when it signs out or another user signs in), so it never carries the previous user's
/// customer ids.
public final class StreamTokenProvider<Session: AuthenticatedTransport>: Sendable {
    /// The session the token requests are authenticated with.
    public let session: Session
    /// The ids to put in the token; `nil` asks for all of the user's customer ids.
    public let customerIds: [String: String]?
    /// Seconds before `exp` at which the cached token is replaced.
    public let margin: TimeInterval
    private let path: String
    let clock: @Sendable () -> Date
    private let cache: TokenCache<ExpiringToken>

    /// Creates a provider.
    /// - Parameters:
    ///   - session: authenticates the requests (usually an ``AuthSession``).
    ///   - customerIds: e.g. `["crm": "C-42"]`; `nil` for all of the user's ids (`registered` is the user id unless
    ///     the server is configured to use verified emails).
    ///   - path: endpoint relative to the session's base URL; `stream-token` by default.
    ///   - margin: refresh this many seconds before `exp`; 60 by default.
    ///   - now: the clock; the system clock by default.
    public init(
        session: Session,
        customerIds: [String: String]? = nil,
        path: String = "stream-token",
        margin: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.session = session
        self.customerIds = customerIds
        self.path = path
        self.margin = margin
        self.clock = now
        self.cache = TokenCache(now: now)
    }

    /// The Stream JWT, from cache while more than `margin` seconds remain before its `exp`.
    /// - Throws: whatever the session throws; ``TokenClientError/server(status:body:)`` (403
    ///   `insufficient_scope` for ids that are not the user's, 503 when not configured);
    ///   ``TokenClientError/invalidResponse`` when the answer or the JWT's `exp` cannot be read.
    public func token() async throws -> String {
        try await currentToken().token
    }

    /// The token with its `exp` and the time it will be refreshed; use `refreshAt` to schedule pushing a
    /// new one to the SDK ahead of expiry.
    /// - Throws: like ``token()``.
    public func currentToken() async throws -> ExpiringToken {
        try await cache.token(owner: await session.tokenOwner) {
            [session, path, margin, customerIds] in
            let request = session.makeRequest("POST", path, body: StreamTokenRequest(customerIds: customerIds))
            let vended: VendedToken = try await session.json(request)
            guard let expiresAt = JWTExpiry.expiration(of: vended.token) else {
                throw TokenClientError.invalidResponse
            }
            return ExpiringToken(
                token: vended.token, expiresAt: expiresAt, refreshAt: expiresAt.addingTimeInterval(-margin))
        }
    }

    /// Forgets the cached token (e.g. the SDK reported it invalid), so the next call fetches a new one.
    public func invalidate() async {
        await cache.invalidate()
    }
}
