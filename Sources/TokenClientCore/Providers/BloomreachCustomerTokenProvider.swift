import AuthAPI
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Supplies Bloomreach Engagement customer tokens (the SDK's customer-token authorization mode,
/// `advancedAuthEnabled`) from `POST /vend/<vendor>` for a `bloomreach-customer` vendor, the customer ids given
/// per call.
///
/// Each distinct id set has its own cached token: a token is only ever returned for exactly the ids it was
/// vended for. Per id set the token is cached until `margin` seconds (default 60) before it expires, and
/// concurrent callers coalesce onto one request. The `capacity` (default 8) most recently used id sets are
/// kept; the least recently used is dropped beyond that. Cached tokens are dropped when the session's
/// ``AuthenticatedTransport/tokenOwner`` changes (sign-out, another user), and after a 429 or 503 with
/// `Retry-After` no id set sends a request until the time has passed (5 minutes at most) or an `invalidate`.
///
/// The SDK asks its `AuthorizationProviderType` synchronously, on a background thread; see
/// ``blockingToken(customerIds:timeout:)``.
///
/// ```swift
/// let customerTokens = BloomreachCustomerTokenProvider(session: session, vendor: "bloomreach-customer")
/// let token = try await customerTokens.token(customerIds: ["registered": user.id])
/// ```
public final class BloomreachCustomerTokenProvider<Session: AuthenticatedTransport>: Sendable {
    /// The most id sets whose tokens are kept.
    public let capacity: Int
    private let endpoint: VendEndpoint<Session>
    /// One provider per id set, least recently used first.
    private let providers = Locked<[(ids: [String: String], provider: VendedTokenProvider<Session>)]>([])

    /// Creates a provider.
    /// - Parameters:
    ///   - session: authenticates the requests (usually an ``AuthSession``).
    ///   - vendor: the name of the `bloomreach-customer` vendor in the server's `vendors` configuration.
    ///   - margin: replace a token this many seconds before it expires; 60 by default.
    ///   - capacity: how many id sets keep their token; 8 by default, at least 1.
    ///   - now: the clock; the system clock by default.
    public init(
        session: Session,
        vendor: String,
        margin: TimeInterval = 60,
        capacity: Int = 8,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        precondition(capacity >= 1, "capacity must be at least 1")
        self.endpoint = VendEndpoint(session: session, vendor: vendor, margin: margin, now: now)
        self.capacity = capacity
    }

    /// The session the token requests are authenticated with.
    public var session: Session { endpoint.session }
    /// The vendor's name, the last path component of `POST /vend/<vendor>`.
    public var vendor: String { endpoint.vendor }
    /// Seconds before expiry at which a cached token is replaced.
    public var margin: TimeInterval { endpoint.margin }

    /// The customer token for exactly `customerIds` (its `sub` claim), from cache while more than `margin`
    /// seconds remain.
    /// - Parameter customerIds: e.g. `["registered": "u-1"]`; each pair must be one of the user's own customer
    ///   ids. Sent as `{"customerIds": {…}}`.
    /// - Throws: whatever the session throws (``TokenClientError/signedOut``…);
    ///   ``TokenClientError/server(status:body:)``: 403 `insufficient_scope` for ids that are not the user's (or
    ///   none), 404 `not_found` for an unknown vendor, 400 `invalid_request`, 503 `unavailable` when the vendor
    ///   is configured without keys; ``TokenClientError/invalidResponse``.
    public func token(customerIds: [String: String]) async throws -> String {
        try await provider(for: customerIds).token()
    }

    /// The token for `customerIds` with its expiry and the time it will be replaced.
    /// - Throws: like ``token(customerIds:)``.
    public func currentToken(customerIds: [String: String]) async throws -> ExpiringToken {
        try await provider(for: customerIds).currentToken()
    }

    /// Forgets the token cached for `customerIds` (e.g. Bloomreach refused it) and any `Retry-After` wait.
    public func invalidate(customerIds: [String: String]) async {
        endpoint.clearBackoff()
        let provider = providers.withLock { entries in entries.first { $0.ids == customerIds }?.provider }
        await provider?.invalidate()
    }

    /// Forgets every cached token and any `Retry-After` wait.
    public func invalidateAll() async {
        endpoint.clearBackoff()
        providers.withLock { $0.removeAll() }
    }

    /// The provider for `ids`, made most recently used; a new one when `ids` has none.
    private func provider(for ids: [String: String]) -> VendedTokenProvider<Session> {
        providers.withLock { entries in
            if let index = entries.firstIndex(where: { $0.ids == ids }) {
                let entry = entries.remove(at: index)
                entries.append(entry)
                return entry.provider
            }
            let provider = VendedTokenProvider(endpoint: endpoint, parameters: ["customerIds": .customerIds(ids)])
            entries.append((ids, provider))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
            return provider
        }
    }
}
