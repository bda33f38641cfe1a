import Synchronization

/// A monotonically increasing counter, one series per label-value combination.
public final class CounterFamily: MetricFamily, Sendable {
    let name: String
    let help: String
    let labelNames: [String]
    var type: String { "counter" }
    private let values: Mutex<[[String]: Double]>

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.values = Mutex([:])
    }

    /// Adds `amount` (default 1) to the series named by `labels`, given in the family's label order.
    public func increment(_ labels: String..., by amount: Double = 1) {
        increment(labels: labels, by: amount)
    }

    /// Adds `amount` to the series named by `labels`, given in the family's label order.
    public func increment(labels: [String], by amount: Double = 1) {
        precondition(labels.count == labelNames.count, "\(name) takes \(labelNames.count) labels")
        values.withLock { $0[labels, default: 0] += amount }
    }

    /// The current value of one series (0 when it was never incremented).
    public func value(_ labels: String...) -> Double {
        values.withLock { $0[labels] ?? 0 }
    }

    func render(into output: inout String) {
        let snapshot = values.withLock { $0 }
        for (labels, value) in snapshot.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            output += "\(name)\(labelSet(labelNames, labels)) \(formatSample(value))\n"
        }
    }
}

/// A single value read from a closure at scrape time: a gauge (queue depths) or a counter kept elsewhere.
final class GaugeFamily: MetricFamily, Sendable {
    let name: String
    let help: String
    let type: String
    private let read: @Sendable () -> Double

    init(name: String, help: String, type: String, read: @escaping @Sendable () -> Double) {
        self.name = name
        self.help = help
        self.type = type
        self.read = read
    }

    func render(into output: inout String) {
        output += "\(name) \(formatSample(read()))\n"
    }
}
