import CoreMetrics
import Prometheus
import Synchronization
import Testing

@testable import HTTPServer
@testable import TokenService

@Suite struct ServiceMetricsTests {
    static func completed(_ method: String, _ route: String?, _ status: Int, micros: UInt64 = 50) -> CompletedRequest {
        CompletedRequest(method: method, route: route, status: HTTPStatus(code: status), durationMicroseconds: micros)
    }

    static func text(_ metrics: ServiceMetrics) -> String {
        String(decoding: metrics.exposition(), as: UTF8.self)
    }

    @Test("renders counters, gauges and cumulative histograms in the text format")
    func rendersTextFormat() {
        let metrics = ServiceMetrics()
        metrics.gauge("t_depth", help: "Depth.") { 3 }
        metrics.record(Self.completed("GET", "/healthz", 200, micros: 50))
        metrics.record(Self.completed("GET", "/healthz", 200, micros: 500_000))
        metrics.record(Self.completed("POST", "/auth/login", 401, micros: 5_000_000))
        metrics.record(Self.completed("GET", "/healthz", 200, micros: 20_000_000))
        let text = Self.text(metrics)
        #expect(text.contains("# TYPE tokenvend_http_requests_total counter\n"))
        #expect(text.contains("# HELP tokenvend_http_requests_total HTTP requests by route, method and status.\n"))
        #expect(text.contains(#"tokenvend_http_requests_total{route="/healthz",method="GET",status="200"} 3"# + "\n"))
        #expect(
            text.contains(#"tokenvend_http_requests_total{route="/auth/login",method="POST",status="401"} 1"# + "\n"))
        #expect(text.contains("# TYPE tokenvend_http_request_duration_seconds histogram\n"))
        #expect(
            text.contains(#"tokenvend_http_request_duration_seconds_bucket{route="/healthz",le="0.0005"} 1"# + "\n"))
        #expect(text.contains(#"tokenvend_http_request_duration_seconds_bucket{route="/healthz",le="0.5"} 2"# + "\n"))
        #expect(text.contains(#"tokenvend_http_request_duration_seconds_bucket{route="/healthz",le="10.0"} 2"# + "\n"))
        #expect(text.contains(#"tokenvend_http_request_duration_seconds_bucket{route="/healthz",le="+Inf"} 3"# + "\n"))
        #expect(text.contains(#"tokenvend_http_request_duration_seconds_count{route="/healthz"} 3"# + "\n"))
        #expect(
            text.contains(#"tokenvend_http_request_duration_seconds_bucket{route="/auth/login",le="5.0"} 1"# + "\n"))
        #expect(text.contains("# TYPE t_depth gauge\n"))
        #expect(text.contains("t_depth 3.0\n"))
    }

    @Test("every label comes from a fixed set: unknown methods, unmatched routes and unlisted statuses collapse")
    func fixedLabels() {
        let metrics = ServiceMetrics()
        metrics.record(Self.completed("get", nil, 404))
        metrics.record(Self.completed("BREW", nil, 404))
        metrics.record(Self.completed("-", nil, 400))
        metrics.record(Self.completed("GET", "/auth/sessions/:id", 418))
        metrics.record(Self.completed("GET", "/auth/sessions/:id", 599))
        metrics.record(Self.completed("GET", "/auth/sessions/:id", 302))
        #expect(metrics.requests.value("unmatched", "other", "404") == 2)
        #expect(metrics.requests.value("unmatched", "-", "400") == 1)
        #expect(metrics.requests.value("/auth/sessions/:id", "GET", "4xx") == 1)
        #expect(metrics.requests.value("/auth/sessions/:id", "GET", "5xx") == 1)
        #expect(metrics.requests.value("/auth/sessions/:id", "GET", "3xx") == 1)
        let samples = Self.text(metrics).split(separator: "\n").filter { $0.hasPrefix("tokenvend_http_requests_total") }
        #expect(samples.count == 5)
    }

    @Test("escapes quotes, backslashes and newlines in label values")
    func escapesLabels() {
        let metrics = ServiceMetrics()
        metrics.record(Self.completed("GET", "a\"b\\c\nd", 200))
        #expect(Self.text(metrics).contains(#"route="a\"b\\c\nd""#))
    }

    @Test("one-label counters count by their closed set of values; an unlabelled one is exposed as 0 from the start")
    func labelledCounters() {
        let metrics = ServiceMetrics()
        #expect(Self.text(metrics).contains("tokenvend_refresh_reuse_detected_total 0\n"))
        metrics.logins.increment(.rateLimited)
        metrics.logins.increment(.rateLimited)
        metrics.sessionsRevoked.increment(.logout, by: 3)
        metrics.refreshReuseDetected.increment()
        #expect(metrics.logins.value(.rateLimited) == 2)
        #expect(metrics.logins.value(.failed) == 0)
        let text = Self.text(metrics)
        #expect(text.contains(#"tokenvend_logins_total{result="rate_limited"} 2"# + "\n"))
        #expect(text.contains(#"tokenvend_sessions_revoked_total{reason="logout"} 3"# + "\n"))
        #expect(text.contains("tokenvend_refresh_reuse_detected_total 1\n"))
        #expect(!text.contains(#"tokenvend_logins_total{result="failed"}"#))
    }

    @Test("a counter kept elsewhere is copied in at render time and never goes down")
    func sampledCounter() {
        let metrics = ServiceMetrics()
        let total = Mutex<UInt64>(0)
        metrics.counter("t_calls_total", help: "Calls.") { total.withLock { $0 } }
        #expect(Self.text(metrics).contains("t_calls_total 0\n"))
        total.withLock { $0 = 5 }
        #expect(Self.text(metrics).contains("t_calls_total 5\n"))
        #expect(Self.text(metrics).contains("t_calls_total 5\n"))
        total.withLock { $0 = 7 }
        #expect(Self.text(metrics).contains("t_calls_total 7\n"))
    }

    @Test("a swift-metrics Counter made through the Prometheus factory over the same registry is rendered")
    func swiftMetricsThroughFactory() {
        let metrics = ServiceMetrics()
        let factory = PrometheusMetricsFactory(registry: metrics.registry)
        let counter = CoreMetrics.Counter(
            label: "library_queries_total", dimensions: [("db", "main")], factory: factory)
        counter.increment(by: 4)
        #expect(Self.text(metrics).contains(#"library_queries_total{db="main"} 4"# + "\n"))
    }
}
