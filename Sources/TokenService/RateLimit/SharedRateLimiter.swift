import FoundationEssentials
import Store

/// A rate limit that every instance on the store shares, one store call per event: failed logins per account
/// (low volume, security-relevant, so every failure is written at once and durably). Token-issuing requests per
/// address use `BufferedRateLimiter`, which counts the same way without a synchronous write per request.
///
/// Counting: the store keeps one counter per key and sub-window (`SubWindows`: the window cut into 8), and a
/// key's events are the sum of its current sub-window and the 7 before it. So an event counts for between 7/8
/// of the window and the whole window (the bounded error against an exact sliding log), and a refusal ends,
/// with `Retry-After` never above the window (as the in-memory `RateLimiter` promises), when the oldest
/// sub-window still needed leaves the window.
///
/// An event fits when the count before it, plus one, is at most `limit`. `acquire` adds its event first and
/// judges the counts it gets back (one round trip), so a refused attempt counts too: a client that keeps
/// hammering stays limited, one that waits for `Retry-After` is let in. `check` only reads.
///
/// When the counter store cannot answer, every method throws its `StoreError` and the service answers 503
/// `unavailable` (fail closed): a login is refused rather than let an attacker guess without limit during an
/// outage, and a token-issuing request would need the same database anyway.
struct SharedRateLimiter: RateLimiting {
    /// The bucket of failed logins per account (key: the normalised email).
    static let loginFailures = "login-failures"
    /// The bucket of browser sign-ins started per client address (key: the address or its /64).
    static let flowStarts = "oauth-flow-starts"
    /// The bucket of refused ID tokens whose signature held (key: `<provider>:<sub>`).
    static let idTokenSubjectFailures = "idtoken-subject-failures"
    /// The bucket of refused ID tokens per client address (key: the address or its /64).
    static let idTokenAddressFailures = "idtoken-address-failures"
    /// The bucket of token-issuing requests per client address (key: the address or its /64).
    static let addressRequests = "address-requests"

    let counters: any RateLimitCounters
    let bucket: String
    let limit: Int
    let windows: SubWindows
    let now: @Sendable () -> Date

    init(
        counters: any RateLimitCounters, bucket: String, limit: Int, window: Duration,
        now: @escaping @Sendable () -> Date
    ) {
        self.counters = counters
        self.bucket = bucket
        self.limit = limit
        self.windows = SubWindows(window: window)
        self.now = now
    }

    func check(_ key: String) async throws(StoreError) -> RateLimiter.Decision {
        try await decide(key, adding: 0)
    }

    func acquire(_ key: String) async throws(StoreError) -> RateLimiter.Decision {
        try await decide(key, adding: 1)
    }

    func record(_ key: String) async throws(StoreError) {
        _ = try await decide(key, adding: 1)
    }

    func reset(_ key: String) async throws(StoreError) {
        try await counters.reset(bucket: bucket, key: key)
    }

    /// Adds `amount` events (0: only reads) durably and judges the counts read back.
    private func decide(_ key: String, adding amount: Int) async throws(StoreError) -> RateLimiter.Decision {
        let read = try await counters.recent(
            adding: [key: amount], bucket: bucket, window: windows.duration, windows: windows.count, durable: true,
            now: now())
        let counts = read[key] ?? RecentCounts(counts: [], elapsedMilliseconds: 0)
        return windows.decision(counts, limit: limit, including: amount > 0)
    }
}
