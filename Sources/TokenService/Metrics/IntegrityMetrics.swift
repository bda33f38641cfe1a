public import AppIntegrity
public import Prometheus
import Synchronization

/// App integrity's metrics: `tokenvend_integrity_checks_total{route,result,reason}` (every check of a header on a
/// route at `report` or `require`, and every exchange at `/integrity/*`) and
/// `tokenvend_integrity_tokens_issued_total{platform}`. Every label comes from a closed set, so no label value comes
/// from a request; a failure series is made on its first use (the cross product would be some 300 series), the
/// `passed` series and the issued counters at start-up.
public final class IntegrityMetrics: Sendable {
    /// The `route` label: the seven policy routes, and the three exchange endpoints.
    public enum Route: String, Sendable, CaseIterable {
        case register, login, idtoken, refresh, vend, stream, moss
        /// `POST /integrity/apple/attest`.
        case attest
        /// `POST /integrity/apple/assert`.
        case assert
        /// `POST /integrity/android`.
        case android

        /// The label of a policy route.
        init(_ route: IntegrityRoute) {
            switch route {
            case .register: self = .register
            case .login: self = .login
            case .idtoken: self = .idtoken
            case .refresh: self = .refresh
            case .vend: self = .vend
            case .stream: self = .stream
            case .moss: self = .moss
            }
        }
    }

    /// The `platform` label of `tokenvend_integrity_tokens_issued_total`.
    public enum Issued: String, Sendable, CaseIterable {
        case appleAttest = "apple_attest"
        case appleAssert = "apple_assert"
        case android
    }

    private static let checksName = "tokenvend_integrity_checks_total"
    private static let checksHelp = "App-integrity checks, by route, result (passed or failed) and failure reason."
    private let registry: PrometheusCollectorRegistry
    private let passed: [Route: Counter]
    private let issued: [Issued: Counter]
    private let failures = Mutex<[String: Counter]>([:])

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var passed: [Route: Counter] = [:]
        for route in Route.allCases {
            passed[route] = registry.makeCounter(
                name: Self.checksName, labels: [("route", route.rawValue), ("result", "passed"), ("reason", "none")],
                help: Self.checksHelp)
        }
        self.passed = passed
        var issued: [Issued: Counter] = [:]
        for platform in Issued.allCases {
            issued[platform] = registry.makeCounter(
                name: "tokenvend_integrity_tokens_issued_total", labels: [("platform", platform.rawValue)],
                help: "Integrity tokens issued, by how the app proved itself.")
        }
        self.issued = issued
    }

    /// Counts a check that passed.
    public func passed(_ route: Route) {
        passed[route]?.increment()
    }

    /// Counts a check that failed for `reason`.
    public func failed(_ route: Route, _ reason: IntegrityFailureReason) {
        let key = route.rawValue + "/" + reason.rawValue
        let counter = failures.withLock { series in
            if let counter = series[key] { return counter }
            let counter = registry.makeCounter(
                name: Self.checksName,
                labels: [("route", route.rawValue), ("result", "failed"), ("reason", reason.rawValue)],
                help: Self.checksHelp)
            series[key] = counter
            return counter
        }
        counter.increment()
    }

    /// Counts an integrity token issued.
    public func countIssued(_ platform: Issued) {
        issued[platform]?.increment()
    }

    /// The current value of one checks series (`reason` nil: the passed series); renders the registry (tests).
    public func checks(_ route: Route, failed reason: IntegrityFailureReason? = nil) -> Double {
        let result = reason == nil ? "passed" : "failed"
        return PrometheusSample.value(
            in: registry,
            #"\#(Self.checksName){route="\#(route.rawValue)",result="\#(result)",reason="\#(reason?.rawValue ?? "none")"}"#
        )
    }

    /// The current value of one issued series; renders the registry (tests).
    public func issued(_ platform: Issued) -> Double {
        PrometheusSample.value(
            in: registry, #"tokenvend_integrity_tokens_issued_total{platform="\#(platform.rawValue)"}"#)
    }
}
