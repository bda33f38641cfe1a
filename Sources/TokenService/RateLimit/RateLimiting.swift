import Store

/// A rate limit the service consults: failed logins per account, token-issuing requests per client address.
///
/// Two implementations: `RateLimiter`, in process memory (a sliding log; one instance, SQLite), and
/// `SharedRateLimiter`, over the store's shared counters (PostgreSQL: every instance sees every event, so N
/// instances do not allow N times the budget). `Components` picks the shared one when the backend has counters.
protocol RateLimiting: Sendable {
    /// Whether `key` is over its limit now, recording nothing (a login checks its account before verifying).
    /// - Throws: `StoreError` when a shared counter store cannot answer (never for the in-memory limiter).
    func check(_ key: String) async throws(StoreError) -> RateLimiter.Decision

    /// Records one event for `key` when it fits the limit, and says whether it did (a token-issuing request).
    func acquire(_ key: String) async throws(StoreError) -> RateLimiter.Decision

    /// Records one event for `key` even over the limit (a failed login still counts).
    func record(_ key: String) async throws(StoreError)

    /// Forgets `key`'s events (a successful login clears its account's failures).
    func reset(_ key: String) async throws(StoreError)
}

/// The in-memory limiter on the process's monotonic clock; never throws. (`reset(_:)` is the limiter's own.)
extension RateLimiter: RateLimiting {
    func check(_ key: String) async throws(StoreError) -> Decision { check(key, now: monotonicSeconds()) }

    func acquire(_ key: String) async throws(StoreError) -> Decision { acquire(key, now: monotonicSeconds()) }

    func record(_ key: String) async throws(StoreError) { record(key, now: monotonicSeconds()) }
}
