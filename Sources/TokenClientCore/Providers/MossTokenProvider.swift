import AuthAPI
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Supplies Moss project tokens from `GET /moss-token`, shaped for the Moss Swift SDK's `Authenticator`
/// protocol (`AnyObject, Sendable`, `getAuthHeader() async throws -> String`). Conform it in the app:
/// `extension MossTokenProvider: @retroactive Authenticator {}`.
///
/// The token is cached until `margin` seconds (default 60) before `expiresIn` runs out, and concurrent
/// callers coalesce onto one fetch. The cached token is dropped when the session's
/// ``AuthenticatedTransport/tokenOwner`` changes: for an ``AuthSession``, when it signs out or another user
/// signs in.
public final class MossTokenProvider<Session: AuthenticatedTransport>: Sendable {
    /// The session the token requests are authenticated with.
    public let session: Session
    /// Seconds before expiry at which the cached token is replaced.
    public let margin: TimeInterval
    private let path: String
    private let clock: @Sendable () -> Date
    private let cache: TokenCache<ExpiringToken>

    /// Creates a provider.
    /// - Parameters:
    ///   - session: authenticates the requests (usually an ``AuthSession``).
    ///   - path: endpoint relative to the session's base URL; `moss-token` by default.
    ///   - margin: refresh this many seconds before expiry; 60 by default, as the SDK does.
    ///   - now: the clock; the system clock by default.
    public init(
        session: Session,
        path: String = "moss-token",
        margin: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.session = session
        self.path = path
        self.margin = margin
        self.clock = now
        self.cache = TokenCache(now: now)
    }

    /// The raw Moss token (no `Bearer ` prefix), from cache when it is not near expiry.
    /// - Throws: whatever the session throws; ``TokenClientError/server(status:body:)`` (502
    ///   `upstream_error`, 503 `unavailable`); ``TokenClientError/invalidResponse``.
    public func getAuthHeader() async throws -> String {
        try await currentToken().token
    }

    /// The token with its expiry, from cache when it is not near expiry.
    /// - Throws: like ``getAuthHeader()``.
    public func currentToken() async throws -> ExpiringToken {
        try await cache.token(owner: await session.tokenOwner) { [session, path, margin, clock] in
            let vended: VendedToken = try await session.json(session.makeRequest("GET", path))
            let expiresAt = clock().addingTimeInterval(TimeInterval(vended.expiresIn))
            return ExpiringToken(
                token: vended.token, expiresAt: expiresAt, refreshAt: expiresAt.addingTimeInterval(-margin))
        }
    }

    /// Forgets the cached token (e.g. after Moss rejected it), so the next call fetches a new one.
    public func invalidate() async {
        await cache.invalidate()
    }
}
