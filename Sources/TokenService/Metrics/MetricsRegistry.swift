import Synchronization

/// A small Prometheus registry: counters and histograms with labels, and gauges read at scrape time.
///
/// Every family is created once at start-up; recording is a mutex-guarded dictionary update (tens of
/// nanoseconds uncontended), so it is cheap enough for every request. Label values come from a closed set
/// chosen by the server (route patterns, status codes, result names), never from raw request input, which
/// keeps the number of series bounded.
public final class MetricsRegistry: Sendable {
    private let families: Mutex<[any MetricFamily]>

    /// Creates an empty registry.
    public init() {
        families = Mutex([])
    }

    /// Registers and returns a counter family.
    public func counter(_ name: String, help: String, labels: [String] = []) -> CounterFamily {
        let family = CounterFamily(name: name, help: help, labelNames: labels)
        families.withLock { $0.append(family) }
        return family
    }

    /// Registers and returns a histogram family with the given upper bounds (seconds or any unit).
    public func histogram(_ name: String, help: String, labels: [String] = [], buckets: [Double]) -> HistogramFamily {
        let family = HistogramFamily(name: name, help: help, labelNames: labels, buckets: buckets)
        families.withLock { $0.append(family) }
        return family
    }

    /// Registers a gauge whose value is read when the registry is rendered.
    public func gauge(_ name: String, help: String, read: @escaping @Sendable () -> Double) {
        let family = GaugeFamily(name: name, help: help, type: "gauge", read: read)
        families.withLock { $0.append(family) }
    }

    /// Registers a counter kept by another component, read when the registry is rendered.
    public func counter(_ name: String, help: String, read: @escaping @Sendable () -> Double) {
        let family = GaugeFamily(name: name, help: help, type: "counter", read: read)
        families.withLock { $0.append(family) }
    }

    /// Renders every family in the Prometheus text exposition format, version 0.0.4.
    public func render() -> String {
        let snapshot = families.withLock { $0 }
        var output = ""
        output.reserveCapacity(4096)
        for family in snapshot {
            output += "# HELP \(family.name) \(family.help)\n# TYPE \(family.name) \(family.type)\n"
            family.render(into: &output)
        }
        return output
    }
}

/// One named metric with its samples.
protocol MetricFamily: Sendable {
    var name: String { get }
    var help: String { get }
    var type: String { get }
    func render(into output: inout String)
}

/// Formats `{a="x",b="y"}` for the given names and values, escaping values as the text format requires.
func labelSet(_ names: [String], _ values: [String], extra: (String, String)? = nil) -> String {
    var pairs: [String] = []
    for (name, value) in zip(names, values) {
        pairs.append("\(name)=\"\(escapeLabelValue(value))\"")
    }
    if let extra {
        pairs.append("\(extra.0)=\"\(escapeLabelValue(extra.1))\"")
    }
    return pairs.isEmpty ? "" : "{" + pairs.joined(separator: ",") + "}"
}

/// Escapes backslash, double quote and line feed, the three characters the text format reserves.
func escapeLabelValue(_ value: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(value.utf8.count)
    for character in value {
        switch character {
        case "\\": escaped += "\\\\"
        case "\"": escaped += "\\\""
        case "\n": escaped += "\\n"
        default: escaped.append(character)
        }
    }
    return escaped
}

/// Formats a sample value the way Prometheus parses it (integers without a fraction).
func formatSample(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
