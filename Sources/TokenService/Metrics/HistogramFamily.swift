import Synchronization

/// A cumulative histogram, one series per label-value combination, with fixed bucket bounds.
public final class HistogramFamily: MetricFamily, Sendable {
    let name: String
    let help: String
    let labelNames: [String]
    let buckets: [Double]
    var type: String { "histogram" }
    private let series: Mutex<[[String]: Series]>

    struct Series {
        var counts: [UInt64]
        var sum: Double = 0
        var count: UInt64 = 0

        mutating func record(_ value: Double, at index: Int) {
            counts[index] += 1
            sum += value
            count += 1
        }
    }

    init(name: String, help: String, labelNames: [String], buckets: [Double]) {
        precondition(buckets == buckets.sorted(), "bucket bounds must ascend")
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.buckets = buckets
        self.series = Mutex([:])
    }

    /// Records one observation in the series named by `labels`.
    public func observe(_ value: Double, labels: [String] = []) {
        precondition(labels.count == labelNames.count, "\(name) takes \(labelNames.count) labels")
        // Non-cumulative counts per bucket; rendering accumulates them, so recording stays O(log n).
        var low = 0
        var high = buckets.count
        while low < high {
            let mid = (low + high) / 2
            if value <= buckets[mid] { high = mid } else { low = mid + 1 }
        }
        let index = low
        let bucketCount = buckets.count
        series.withLock { all in
            // Mutated in place (no copy of the bucket array per observation).
            all[labels, default: Series(counts: Array(repeating: 0, count: bucketCount + 1))].record(value, at: index)
        }
    }

    /// The number of observations recorded in one series.
    public func count(labels: [String] = []) -> UInt64 {
        series.withLock { $0[labels]?.count ?? 0 }
    }

    func render(into output: inout String) {
        let snapshot = series.withLock { $0 }
        for (labels, entry) in snapshot.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            var cumulative: UInt64 = 0
            for (bound, count) in zip(buckets, entry.counts) {
                cumulative += count
                let set = labelSet(labelNames, labels, extra: ("le", formatSample(bound)))
                output += "\(name)_bucket\(set) \(cumulative)\n"
            }
            let set = labelSet(labelNames, labels, extra: ("le", "+Inf"))
            output += "\(name)_bucket\(set) \(entry.count)\n"
            output += "\(name)_sum\(labelSet(labelNames, labels)) \(formatSample(entry.sum))\n"
            output += "\(name)_count\(labelSet(labelNames, labels)) \(entry.count)\n"
        }
    }
}
