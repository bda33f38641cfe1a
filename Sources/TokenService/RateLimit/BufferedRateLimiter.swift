import FoundationEssentials
import Store
import Synchronization

/// The per-address request limit on a shared store without a synchronous write per request.
///
/// Each instance counts its own events in memory and flushes them every `flushInterval` (default 100 ms): one
/// upsert per key per flush, all keys in one call, not durable (`synchronous_commit = off` on PostgreSQL: a
/// crash may lose the last counts, harmless for a rate limit), each of which reads the key's global counts
/// back. A request is decided on the key's last global counts (aged by the time since they were read) plus the
/// instance's own events not yet flushed. A key the instance has not read within `maxAge` (default 200 ms) is
/// read, and its event added, synchronously — so the first request for an address waits for the store.
///
/// Counting follows `SubWindows` (8 per window), as `SharedRateLimiter` does. Bounded error: a decision misses
/// at most the events other instances admitted for the key that they have not flushed yet or that this instance
/// has not read back yet — those of about the last `maxAge` plus one flush round trip; on one instance it is
/// exact. A refused request counts too.
///
/// Store errors: a synchronous read that fails throws (503, fail closed); a failed flush keeps its counts for
/// the next one, and a key whose counts stay unread past `maxAge` is read synchronously again, so an outage
/// fails closed within `maxAge`.
final class BufferedRateLimiter: RateLimiting {
    private struct Entry {
        /// The global counts as last read.
        var known: RecentCounts
        /// When they were read (the limiter's clock, milliseconds).
        var readAt: Int64
        /// Events of this instance not yet sent.
        var pending = 0
        /// Events sent in the flush under way.
        var inFlight = 0
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var flushScheduled = false
    }

    let counters: any RateLimitCounters
    let bucket: String
    let limit: Int
    let windows: SubWindows
    /// How often counts are flushed. Default 100 ms.
    let flushInterval: Duration
    /// How old a key's global counts may be before a request reads them synchronously. Default 200 ms.
    let maxAge: Duration
    let now: @Sendable () -> Date
    private let state = Mutex(State())
    /// At this many keys, keys not read within `maxAge` and with nothing to flush are dropped.
    private static let sweepThreshold = 10_000

    init(
        counters: any RateLimitCounters, bucket: String, limit: Int, window: Duration,
        flushInterval: Duration = .milliseconds(100), maxAge: Duration = .milliseconds(200),
        now: @escaping @Sendable () -> Date
    ) {
        self.counters = counters
        self.bucket = bucket
        self.limit = limit
        self.windows = SubWindows(window: window)
        self.flushInterval = flushInterval
        self.maxAge = maxAge
        self.now = now
    }

    func acquire(_ key: String) async throws(StoreError) -> RateLimiter.Decision {
        let time = now().storeMilliseconds
        let fast = state.withLock { (state: inout State) -> (RateLimiter.Decision, Bool)? in
            guard var entry = state.entries[key], time - entry.readAt <= maxAge.storeMilliseconds else { return nil }
            entry.pending += 1
            state.entries[key] = entry
            let schedule = !state.flushScheduled
            state.flushScheduled = true
            return (decision(entry, at: time), schedule)
        }
        if let (decision, schedule) = fast {
            if schedule { scheduleFlush() }
            return decision
        }
        let read = try await counters.recent(
            adding: [key: 1], bucket: bucket, window: windows.duration, windows: windows.count, durable: false,
            now: Date(storeMilliseconds: time))
        let known = read[key] ?? RecentCounts(counts: [1], elapsedMilliseconds: 0)
        let after = now().storeMilliseconds
        return state.withLock { (state: inout State) -> RateLimiter.Decision in
            if state.entries.count >= Self.sweepThreshold { sweep(&state, at: after) }
            var entry = state.entries[key] ?? Entry(known: known, readAt: after)
            entry.known = known
            entry.readAt = after
            state.entries[key] = entry
            return decision(entry, at: after)
        }
    }

    func check(_ key: String) async throws(StoreError) -> RateLimiter.Decision {
        let time = now().storeMilliseconds
        if let decision = state.withLock({ (state: inout State) -> RateLimiter.Decision? in
            guard let entry = state.entries[key], time - entry.readAt <= maxAge.storeMilliseconds else { return nil }
            return decision(entry, at: time, including: false)
        }) {
            return decision
        }
        let read = try await counters.recent(
            adding: [key: 0], bucket: bucket, window: windows.duration, windows: windows.count, durable: false,
            now: Date(storeMilliseconds: time))
        var entry = Entry(known: read[key] ?? RecentCounts(counts: [], elapsedMilliseconds: 0), readAt: time)
        entry.pending = state.withLock { ($0.entries[key]?.pending ?? 0) + ($0.entries[key]?.inFlight ?? 0) }
        return decision(entry, at: time, including: false)
    }

    func record(_ key: String) async throws(StoreError) {
        _ = try await acquire(key)
    }

    func reset(_ key: String) async throws(StoreError) {
        try await counters.reset(bucket: bucket, key: key)
        _ = state.withLock { $0.entries.removeValue(forKey: key) }
    }

    /// Sends every key's unflushed events in one call and takes the global counts it reads back. A failure
    /// keeps the events for the next flush.
    func flush() async {
        let time = now().storeMilliseconds
        let batch = state.withLock { (state: inout State) -> [String: Int] in
            state.flushScheduled = false
            var batch: [String: Int] = [:]
            for (key, var entry) in state.entries where entry.pending > 0 {
                batch[key] = entry.pending
                entry.inFlight += entry.pending
                entry.pending = 0
                state.entries[key] = entry
            }
            sweep(&state, at: time)
            return batch
        }
        guard !batch.isEmpty else { return }
        let read: [String: RecentCounts]?
        do {
            read = try await counters.recent(
                adding: batch, bucket: bucket, window: windows.duration, windows: windows.count, durable: false,
                now: Date(storeMilliseconds: time))
        } catch {
            read = nil
        }
        let after = now().storeMilliseconds
        let again = state.withLock { (state: inout State) -> Bool in
            for (key, amount) in batch {
                guard var entry = state.entries[key] else { continue }
                entry.inFlight -= amount
                if let known = read?[key] {
                    entry.known = known
                    entry.readAt = after
                } else {
                    entry.pending += amount
                }
                state.entries[key] = entry
            }
            let pending = state.entries.values.contains { $0.pending > 0 }
            let schedule = pending && !state.flushScheduled
            if schedule { state.flushScheduled = true }
            return schedule
        }
        if again { scheduleFlush() }
    }

    private func scheduleFlush() {
        let interval = flushInterval
        Task { [self] in
            try? await Task.sleep(for: interval)
            await flush()
        }
    }

    /// The decision on the entry's global counts, aged to `time`, plus this instance's unsent events.
    private func decision(_ entry: Entry, at time: Int64, including: Bool = true) -> RateLimiter.Decision {
        var counts = windows.aged(entry.known, by: time - entry.readAt)
        if counts.counts.isEmpty { counts.counts = [0] }
        counts.counts[0] += entry.pending + entry.inFlight
        return windows.decision(counts, limit: limit, including: including)
    }

    /// Drops keys not read within `maxAge` that have nothing to send.
    private func sweep(_ state: inout State, at time: Int64) {
        let maxAge = maxAge.storeMilliseconds
        state.entries = state.entries.filter { _, entry in
            entry.pending + entry.inFlight > 0 || time - entry.readAt <= maxAge
        }
    }
}
