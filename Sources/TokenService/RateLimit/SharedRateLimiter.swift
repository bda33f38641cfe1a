import Foundation
import Store

/// A rate limit that every instance on the store shares: one counter per key and fixed window in the store
/// (`RateLimitCounters`, an upsert per event), judged by the sliding-window estimate (`RateCount.estimate`:
/// the previous window weighted by its overlap with the last `window`, plus the current one).
///
/// An event fits when the estimate before it, plus one, is at most `limit`. `acquire` adds its event first and
/// judges the count it gets back (one round trip), so a refused attempt counts too: a client that keeps
/// hammering stays limited, one that waits for `Retry-After` is let in. `Retry-After` is the time until the
/// estimate, with no new events, leaves room for one (see `retryAfter(_:)`), at least 1 s.
///
/// When the counter store cannot answer, every method throws its `StoreError` and the service answers 503
/// `unavailable` (fail closed): a login is refused rather than let an attacker guess without limit during an
/// outage, and a token-issuing request would need the same database anyway.
struct SharedRateLimiter: RateLimiting {
    /// The bucket of failed logins per account (key: the normalised email).
    static let loginFailures = "login-failures"
    /// The bucket of token-issuing requests per client address (key: the address or its /64).
    static let addressRequests = "address-requests"

    let counters: any RateLimitCounters
    let bucket: String
    let limit: Int
    let window: Duration
    let now: @Sendable () -> Date

    func check(_ key: String) async throws(StoreError) -> RateLimiter.Decision {
        let count = try await counters.count(bucket: bucket, key: key, window: window, now: now())
        return decision(count, including: false)
    }

    func acquire(_ key: String) async throws(StoreError) -> RateLimiter.Decision {
        let count = try await counters.add(1, bucket: bucket, key: key, window: window, now: now())
        return decision(count, including: true)
    }

    func record(_ key: String) async throws(StoreError) {
        _ = try await counters.add(1, bucket: bucket, key: key, window: window, now: now())
    }

    func reset(_ key: String) async throws(StoreError) {
        try await counters.reset(bucket: bucket, key: key)
    }

    /// Whether one more event fits. `including`: `count` already holds the event being judged.
    func decision(_ count: RateCount, including: Bool) -> RateLimiter.Decision {
        let before = count.estimate - (including ? 1 : 0)
        guard before + 1 > Double(limit) + Self.tolerance else { return .allowed }
        return .limited(retryAfter: retryAfter(count))
    }

    /// Whole seconds (at least 1) until the estimate, if nothing else happens, leaves room for one more event:
    /// within the current window while its previous window's weight fades, else after it ends, when the current
    /// count becomes the previous one and fades in turn.
    func retryAfter(_ count: RateCount) -> Int {
        let windowSeconds = Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
        let room = Double(limit - 1)
        let current = Double(count.current)
        let previous = Double(count.previous)
        let elapsed = min(max(count.elapsed, 0), 1)
        let wait: Double
        if current <= room, previous > 0 {
            // previous · (1 − elapsed − t/W) + current ≤ room
            let fade = windowSeconds * (1 - elapsed - (room - current) / previous)
            wait = min(max(fade, 0), max(count.secondsLeft, 0))
        } else if current <= room {
            wait = 0
        } else {
            // After the window ends: current · (1 − τ/W) ≤ room.
            wait = max(count.secondsLeft, 0) + windowSeconds * (1 - room / current)
        }
        return max(1, Int(wait.rounded(.up)))
    }

    /// Slack for the floating-point estimate, so an exact fit is not refused by a rounding error.
    private static let tolerance = 1e-9
}
