import Atomics
public import Prometheus

/// A counter with one label whose values are a closed set (`Label`), each series made on its first increment and
/// then reached without a lock or a registry lookup.
public final class LabelledCounter<Label: MetricLabel>: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let name: String
    private let help: String
    private let labelName: String
    private let series: [Label: ManagedAtomicLazyReference<Counter>]

    init(registry: PrometheusCollectorRegistry, name: String, help: String, label labelName: String) {
        self.registry = registry
        self.name = name
        self.help = help
        self.labelName = labelName
        series = Dictionary(uniqueKeysWithValues: Label.allCases.map { ($0, ManagedAtomicLazyReference<Counter>()) })
    }

    /// Adds `amount` (default 1) to the series of `label`.
    public func increment(_ label: Label, by amount: Int = 1) {
        counter(label).increment(by: Int64(amount))
    }

    /// The current value of one series (0 when it was never incremented); renders the registry (tests).
    public func value(_ label: Label) -> Double {
        PrometheusSample.value(in: registry, #"\#(name){\#(labelName)="\#(label.rawValue)"}"#)
    }

    private func counter(_ label: Label) -> Counter {
        let make = {
            self.registry.makeCounter(name: self.name, labels: [(self.labelName, label.rawValue)], help: self.help)
        }
        // Every case has a slot (see init); the registry returns the same counter for the same labels anyway.
        guard let slot = series[label] else { return make() }
        if let counter = slot.load() { return counter }
        return slot.storeIfNilThenLoad(make())
    }
}

/// A counter without labels, made at start-up (so it is exposed as 0 before its first increment).
public final class ServiceCounter: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let name: String
    private let counter: Counter

    init(registry: PrometheusCollectorRegistry, name: String, help: String) {
        self.registry = registry
        self.name = name
        counter = registry.makeCounter(name: name, help: help)
    }

    /// One series of a counter whose label value is fixed at start-up (a configured name, such as a vendor's).
    init(registry: PrometheusCollectorRegistry, name: String, help: String, label: (name: String, value: String)) {
        self.registry = registry
        self.name = #"\#(name){\#(label.name)="\#(label.value)"}"#
        counter = registry.makeCounter(name: name, labels: [(label.name, label.value)], help: help)
    }

    /// Adds `amount` (default 1).
    public func increment(by amount: Int = 1) {
        counter.increment(by: Int64(amount))
    }

    /// The current value; renders the registry (tests).
    public func value() -> Double {
        PrometheusSample.value(in: registry, name)
    }
}

/// Reads one sample back from a registry's text exposition (swift-prometheus keeps values write-only).
enum PrometheusSample {
    /// The value of the sample line whose series is exactly `series` (`name{label="value",…}`), or 0 when absent.
    static func value(in registry: PrometheusCollectorRegistry, _ series: String) -> Double {
        let prefix = series + " "
        for line in registry.emitToString().split(separator: "\n") where line.hasPrefix(prefix) {
            return Double(line.dropFirst(prefix.count)) ?? 0
        }
        return 0
    }
}
