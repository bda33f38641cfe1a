import Atomics
public import HTTPServer
public import Prometheus
import Synchronization

/// `tokenvend_http_requests_total{route,method,status}` and `tokenvend_http_request_duration_seconds{route}`,
/// with the series of each label combination made once and then reached without a lock.
///
/// Every label comes from a fixed set (see `StatusLabel` and `MethodLabel`), so clients cannot create series. A
/// series appears in the registry on its first request. Recording reads an immutable table through one atomic load
/// and one dictionary lookup keyed by the route template and two small integers: no label array, no registry
/// lookup, no lock but the histogram's own. A miss (the first request of a combination) takes a lock, makes the
/// series in the registry and publishes a new table.
public final class RequestMetrics: Sendable {
    static let requestsName = "tokenvend_http_requests_total"
    static let durationName = "tokenvend_http_request_duration_seconds"
    static let requestsHelp = "HTTP requests by route, method and status."
    static let durationHelp = "Time from a complete request to its response."
    /// The upper bounds of the duration histogram, in seconds.
    public static let durationBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    /// One label combination.
    struct Key: Hashable {
        let route: String?
        let method: UInt8
        let status: UInt8
    }

    /// The series of one label combination.
    struct Series {
        let requests: Counter
        let duration: ValueHistogram
    }

    /// An immutable snapshot of every series made so far; replaced whole when one is added.
    final class Table: AtomicReference, Sendable {
        let series: [Key: Series]

        init(series: [Key: Series]) {
            self.series = series
        }
    }

    private let registry: PrometheusCollectorRegistry
    private let table = ManagedAtomic(Table(series: [:]))
    /// Serialises the makers of new series (readers never take it).
    private let making = Mutex(())

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// Counts one finished request and its latency.
    public func record(_ completed: CompletedRequest) {
        let key = Key(
            route: completed.route, method: MethodLabel.index(of: completed.method),
            status: StatusLabel.index(of: completed.status.code))
        let series = table.load(ordering: .acquiring).series[key] ?? makeSeries(key)
        series.requests.increment()
        series.duration.record(Double(completed.durationMicroseconds) / 1_000_000)
    }

    /// The count of one series (0 when it has no request yet); for tests and diagnostics, it renders the registry.
    public func value(_ route: String, _ method: String, _ status: String) -> Double {
        PrometheusSample.value(
            in: registry, #"\#(Self.requestsName){route="\#(route)",method="\#(method)",status="\#(status)"}"#)
    }

    private func makeSeries(_ key: Key) -> Series {
        making.withLock { _ in
            let current = table.load(ordering: .acquiring)
            if let existing = current.series[key] { return existing }
            let route = key.route ?? "unmatched"
            let labels = [
                ("route", route), ("method", MethodLabel.names[Int(key.method)]),
                ("status", StatusLabel.names[Int(key.status)]),
            ]
            let series = Series(
                requests: registry.makeCounter(name: Self.requestsName, labels: labels, help: Self.requestsHelp),
                duration: registry.makeValueHistogram(
                    name: Self.durationName, labels: [("route", route)], buckets: Self.durationBuckets,
                    help: Self.durationHelp))
            var all = current.series
            all[key] = series
            table.store(Table(series: all), ordering: .releasing)
            return series
        }
    }
}
