#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Event counters that every instance using the store shares (PostgreSQL), so N instances do not allow N times
/// a rate limit: one counter per `(bucket, key, window)`, kept for the current and the previous fixed window,
/// which lets the caller estimate a sliding window (`RateCount.estimate`).
///
/// SQLite deployments run one instance and keep their counters in process memory; their backend has none.
public protocol RateLimitCounters: Sendable {
    /// Adds `amount` to the counter of `key` in `bucket` for the fixed window of length `window`
    /// that contains now, in one statement (an upsert), and returns it with the previous window's count.
    /// - Parameters:
    ///   - bucket: which limit, e.g. `login-failures` or `address-requests`.
    ///   - key: whose events, e.g. the normalised email or the client address.
    ///   - now: the caller's clock; a shared backend may use its own (see `SessionStoring`).
    func add(_ amount: Int, bucket: String, key: String, window: Duration, now: Date) async throws(StoreError)
        -> RateCount

    /// Reads the counter of `key` in `bucket` for the fixed window that contains now, with the previous window's,
    /// without writing anything (a check before an attempt: a read must not create rows or end kept answers).
    /// - Parameters: as `add`.
    func count(bucket: String, key: String, window: Duration, now: Date) async throws(StoreError) -> RateCount

    /// Adds each key's amount to its counter in `bucket` for the fixed window of length `window` that contains
    /// now, and returns each key's counts in the `windows` most recent windows (the current one first). A key
    /// whose amount is 0 is only read; a call whose amounts are all 0 writes nothing. One round trip for all keys.
    /// - Parameters:
    ///   - amounts: the keys and how many events to add to each.
    ///   - durable: false lets the store acknowledge the additions before they are durable (PostgreSQL:
    ///     `synchronous_commit = off`): a crash may lose the last ones, which is harmless for a rate limit.
    ///   - now: the caller's clock; a shared backend may use its own (see `SessionStoring`).
    func recent(
        adding amounts: [String: Int], bucket: String, window: Duration, windows: Int, durable: Bool, now: Date
    ) async throws(StoreError) -> [String: RecentCounts]

    /// Forgets the key's counters in `bucket` (a successful login resets its failures).
    func reset(bucket: String, key: String) async throws(StoreError)

    /// Deletes counters whose window ended before `cutoff`.
    /// - Returns: how many were deleted.
    @discardableResult
    func prune(endedBefore cutoff: Date) async throws(StoreError) -> Int
}

/// One key's counts around now.
public struct RateCount: Sendable, Equatable {
    /// Events in the current window, after the `add`.
    public var current: Int
    /// Events in the window before it.
    public var previous: Int
    /// How far into the current window now is, from 0 to 1.
    public var elapsed: Double
    /// Seconds until the current window ends.
    public var secondsLeft: Double

    /// Creates a count.
    public init(current: Int, previous: Int, elapsed: Double, secondsLeft: Double) {
        self.current = current
        self.previous = previous
        self.elapsed = elapsed
        self.secondsLeft = secondsLeft
    }

    /// The sliding-window estimate (Cloudflare's): the previous window weighted by the part of it that still
    /// overlaps the last `window`, plus the current one.
    public var estimate: Double {
        Double(previous) * (1 - min(max(elapsed, 0), 1)) + Double(current)
    }
}
