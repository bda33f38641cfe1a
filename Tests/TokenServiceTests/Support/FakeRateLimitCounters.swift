import Foundation
import Store
import Synchronization

/// Shared rate-limit counters in memory, with the fixed windows a shared store keeps (aligned to multiples of
/// the window since 1970, as PostgreSQL's would be), driven by the caller's `now`: deterministic.
final class FakeRateLimitCounters: RateLimitCounters {
    private struct Key: Hashable {
        var bucket: String
        var key: String
        var windowStart: Double
        var length: Double
    }

    private let counts = Mutex<[Key: Int]>([:])
    /// Thrown by every call while set (the counter store is down).
    let failure = Mutex<StoreError?>(nil)
    /// Calls to `add`, `reset` and `prune`.
    let calls = Mutex<[String]>([])

    func add(_ amount: Int, bucket: String, key: String, window: Duration, now: Date) async throws(StoreError)
        -> RateCount
    {
        if let error = failure.withLock({ $0 }) { throw error }
        calls.withLock { $0.append("add \(amount) \(bucket)") }
        let length = Double(window.components.seconds)
        let time = now.timeIntervalSince1970
        let start = (time / length).rounded(.down) * length
        return counts.withLock { table in
            let current = Key(bucket: bucket, key: key, windowStart: start, length: length)
            table[current, default: 0] += amount
            let previous = table[Key(bucket: bucket, key: key, windowStart: start - length, length: length)] ?? 0
            return RateCount(
                current: table[current] ?? 0, previous: previous, elapsed: (time - start) / length,
                secondsLeft: start + length - time)
        }
    }

    func count(bucket: String, key: String, window: Duration, now: Date) async throws(StoreError) -> RateCount {
        if let error = failure.withLock({ $0 }) { throw error }
        calls.withLock { $0.append("count \(bucket)") }
        let length = Double(window.components.seconds)
        let time = now.timeIntervalSince1970
        let start = (time / length).rounded(.down) * length
        return counts.withLock { table in
            RateCount(
                current: table[Key(bucket: bucket, key: key, windowStart: start, length: length)] ?? 0,
                previous: table[Key(bucket: bucket, key: key, windowStart: start - length, length: length)] ?? 0,
                elapsed: (time - start) / length, secondsLeft: start + length - time)
        }
    }

    /// Windows of whole milliseconds (a sub-window of 900 s is 112.5 s), aligned to multiples of their length.
    func recent(
        adding amounts: [String: Int], bucket: String, window: Duration, windows: Int, durable: Bool, now: Date
    ) async throws(StoreError) -> [String: RecentCounts] {
        if let error = failure.withLock({ $0 }) { throw error }
        let (seconds, attoseconds) = window.components
        let length = max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        let time = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let start = time - time % length
        var answers: [String: RecentCounts] = [:]
        for key in amounts.keys.sorted() {
            let amount = amounts[key] ?? 0
            calls.withLock { $0.append(amount > 0 ? "add \(amount) \(bucket)" : "count \(bucket)") }
            answers[key] = counts.withLock { table in
                func slot(_ age: Int64) -> Key {
                    Key(
                        bucket: bucket, key: key, windowStart: Double(start - age * length) / 1000,
                        length: Double(length) / 1000)
                }
                if amount > 0 { table[slot(0), default: 0] += amount }
                return RecentCounts(
                    counts: (0..<Int64(max(1, windows))).map { table[slot($0)] ?? 0 }, elapsedMilliseconds: time - start
                )
            }
        }
        return answers
    }

    func reset(bucket: String, key: String) async throws(StoreError) {
        if let error = failure.withLock({ $0 }) { throw error }
        calls.withLock { $0.append("reset \(bucket)") }
        counts.withLock { table in table = table.filter { !($0.key.bucket == bucket && $0.key.key == key) } }
    }

    func prune(endedBefore cutoff: Date) async throws(StoreError) -> Int {
        if let error = failure.withLock({ $0 }) { throw error }
        calls.withLock { $0.append("prune") }
        return counts.withLock { table in
            let before = table.count
            table = table.filter { $0.key.windowStart + $0.key.length >= cutoff.timeIntervalSince1970 }
            return before - table.count
        }
    }

    /// How many windows are kept.
    var keptWindows: Int { counts.withLock { $0.count } }
}
