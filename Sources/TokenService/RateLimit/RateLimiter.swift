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

    /// One key's event log: the live events are `events[head...]`, oldest first, never more than the limit.
    ///
    /// Expired events are dropped by moving `head`, and the array is compacted only once the dead prefix is
    /// larger than the live part, so each event costs amortised O(1) however high the limit; the entry is
    /// always mutated in place in the table, so an append never copies the log (one key with a high limit,
    /// e.g. every client behind one address at thousands of requests a second, stays cheap).
    private struct Entry {
        var events: [Double] = []
        var head = 0
        var lastSeen: Double

        var count: Int { events.count - head }
        var oldest: Double? { head < events.count ? events[head] : nil }
        var newest: Double? { head < events.count ? events.last : nil }

        mutating func dropOldest(_ n: Int) {
            head += n
            if head == events.count {
                events.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 32, head * 2 > events.count {
                events.removeFirst(head)
                head = 0
            }
        }

        mutating func prune(before horizon: Double) {
            var firstLive = head
            while firstLive < events.count, events[firstLive] <= horizon { firstLive += 1 }
            if firstLive > head { dropOldest(firstLive - head) }
        }
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
            guard table[key] != nil else { return .allowed }
            let answer = update(&table, key, now: now) { entry in decision(for: entry, now: now) }
            if table[key]?.count == 0 { table[key] = nil }
            return answer
        }
    }

    /// Records one event for `key` if it is under the limit, and says whether it was.
    public func acquire(_ key: String, now: Double) -> Decision {
        entries.withLock { table in
            update(&table, key, now: now) { entry in
                let answer = decision(for: entry, now: now)
                if answer == .allowed { entry.events.append(now) }
                entry.lastSeen = now
                return answer
            }
        }
    }

    /// Records one event for `key` even when it is over the limit (a failed login still counts).
    public func record(_ key: String, now: Double) {
        entries.withLock { table in
            update(&table, key, now: now) { entry in
                entry.events.append(now)
                if entry.count > limit { entry.dropOldest(entry.count - limit) }
                entry.lastSeen = now
            }
        }
    }

    /// Prunes `key`'s entry (creating it, after making room, when missing) and applies `change` to it in place.
    private func update<T>(
        _ table: inout [String: Entry], _ key: String, now: Double, _ change: (inout Entry) -> T
    ) -> T {
        if table[key] == nil, table.count >= maxKeys {
            evict(&table, now: now)
        }
        return Self.mutate(&table[key, default: Entry(lastSeen: now)], horizon: now - window, change)
    }

    private static func mutate<T>(_ entry: inout Entry, horizon: Double, _ change: (inout Entry) -> T) -> T {
        entry.prune(before: horizon)
        return change(&entry)
    }

    /// Forgets `key` (a successful login clears the account's failures).
    public func reset(_ key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    /// The number of keys tracked now.
    public var trackedKeys: Int { entries.withLock { $0.count } }

    private func decision(for entry: Entry, now: Double) -> Decision {
        guard entry.count >= limit, let oldest = entry.oldest else { return .allowed }
        let wait = oldest + window - now
        return .limited(retryAfter: max(1, Int(wait.rounded(.up))))
    }

    /// Makes room for new keys, amortised: drops every expired key, then, if the table is still more than
    /// nine tenths full, the least recently seen keys down to that mark, so a flood of distinct keys costs
    /// one sweep per tenth of `maxKeys` insertions rather than one per insertion.
    private func evict(_ table: inout [String: Entry], now: Double) {
        let horizon = now - window
        table = table.filter { $0.value.newest.map { $0 > horizon } ?? false }
        let target = maxKeys - max(1, maxKeys / 10)
        guard table.count > target else { return }
        let byAge = table.sorted { $0.value.lastSeen < $1.value.lastSeen }
        for (key, _) in byAge.prefix(table.count - target) {
            table.removeValue(forKey: key)
        }
    }
}
