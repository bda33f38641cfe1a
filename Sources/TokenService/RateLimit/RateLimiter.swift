import Synchronization

/// Counts events per key in a sliding window and says when a key is over its limit.
///
/// Used twice: failed logins per account (`rateLimit.loginFailuresPerAccount` in
/// `rateLimit.loginWindowSeconds`) and token-issuing requests per client address
/// (`rateLimit.requestsPerAddressPerMinute`). Time is passed in as seconds on a monotonic clock, so tests
/// drive it without sleeping. Memory is bounded: at `maxKeys` the keys whose events have all expired are
/// dropped, and if that frees nothing the oldest key goes, so a flood of distinct keys cannot grow the table.
public final class RateLimiter: Sendable {
    /// The answer for one key.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// Over the limit; try again after this many whole seconds (at least 1).
        case limited(retryAfter: Int)
    }

    private struct Entry {
        /// Event times, oldest first; never longer than the limit.
        var events: [Double]
        var lastSeen: Double
    }

    private let limit: Int
    private let window: Double
    private let maxKeys: Int
    private let entries: Mutex<[String: Entry]>

    /// Creates a limiter allowing `limit` events per key in any `window` seconds.
    /// - Parameter maxKeys: how many keys are tracked at most. Default: 100 000.
    public init(limit: Int, window: Double, maxKeys: Int = 100_000) {
        precondition(limit > 0 && window > 0 && maxKeys > 0)
        self.limit = limit
        self.window = window
        self.maxKeys = maxKeys
        self.entries = Mutex([:])
    }

    /// Says whether `key` is currently over its limit, without recording anything.
    public func check(_ key: String, now: Double) -> Decision {
        entries.withLock { table in
            guard var entry = table[key] else { return .allowed }
            prune(&entry, now: now)
            table[key] = entry.events.isEmpty ? nil : entry
            return decision(for: entry, now: now)
        }
    }

    /// Records one event for `key` if it is under the limit, and says whether it was.
    public func acquire(_ key: String, now: Double) -> Decision {
        entries.withLock { table in
            var entry = table[key] ?? Entry(events: [], lastSeen: now)
            prune(&entry, now: now)
            let answer = decision(for: entry, now: now)
            if answer == .allowed {
                entry.events.append(now)
            }
            entry.lastSeen = now
            if table[key] == nil, table.count >= maxKeys {
                evict(&table, now: now)
            }
            table[key] = entry
            return answer
        }
    }

    /// Records one event for `key` even when it is over the limit (a failed login still counts).
    public func record(_ key: String, now: Double) {
        entries.withLock { table in
            var entry = table[key] ?? Entry(events: [], lastSeen: now)
            prune(&entry, now: now)
            entry.events.append(now)
            if entry.events.count > limit {
                entry.events.removeFirst(entry.events.count - limit)
            }
            entry.lastSeen = now
            if table[key] == nil, table.count >= maxKeys {
                evict(&table, now: now)
            }
            table[key] = entry
        }
    }

    /// Forgets `key` (a successful login clears the account's failures).
    public func reset(_ key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    /// The number of keys tracked now.
    public var trackedKeys: Int { entries.withLock { $0.count } }

    private func prune(_ entry: inout Entry, now: Double) {
        let horizon = now - window
        if let firstLive = entry.events.firstIndex(where: { $0 > horizon }) {
            if firstLive > 0 { entry.events.removeFirst(firstLive) }
        } else {
            entry.events.removeAll(keepingCapacity: true)
        }
    }

    private func decision(for entry: Entry, now: Double) -> Decision {
        guard entry.events.count >= limit, let oldest = entry.events.first else { return .allowed }
        let wait = oldest + window - now
        return .limited(retryAfter: max(1, Int(wait.rounded(.up))))
    }

    /// Makes room for new keys, amortised: drops every expired key, then, if the table is still more than
    /// nine tenths full, the least recently seen keys down to that mark, so a flood of distinct keys costs
    /// one sweep per tenth of `maxKeys` insertions rather than one per insertion.
    private func evict(_ table: inout [String: Entry], now: Double) {
        let horizon = now - window
        table = table.filter { $0.value.events.last.map { $0 > horizon } ?? false }
        let target = maxKeys - max(1, maxKeys / 10)
        guard table.count > target else { return }
        let byAge = table.sorted { $0.value.lastSeen < $1.value.lastSeen }
        for (key, _) in byAge.prefix(table.count - target) {
            table.removeValue(forKey: key)
        }
    }
}
