import Testing

@testable import TokenService

@Suite struct MetricsRegistryTests {
    @Test("renders counters, gauges and cumulative histograms in the text format")
    func rendersTextFormat() {
        let registry = MetricsRegistry()
        let requests = registry.counter("t_requests_total", help: "Requests.", labels: ["route", "status"])
        let duration = registry.histogram("t_duration_seconds", help: "Duration.", buckets: [0.1, 1])
        registry.gauge("t_depth", help: "Depth.") { 3 }
        requests.increment("/healthz", "200")
        requests.increment("/healthz", "200")
        requests.increment("/auth/login", "401")
        duration.observe(0.05)
        duration.observe(0.5)
        duration.observe(5)
        let text = registry.render()
        #expect(text.contains("# TYPE t_requests_total counter\n"))
        #expect(text.contains("t_requests_total{route=\"/healthz\",status=\"200\"} 2\n"))
        #expect(text.contains("t_requests_total{route=\"/auth/login\",status=\"401\"} 1\n"))
        #expect(text.contains("t_duration_seconds_bucket{le=\"0.1\"} 1\n"))
        #expect(text.contains("t_duration_seconds_bucket{le=\"1\"} 2\n"))
        #expect(text.contains("t_duration_seconds_bucket{le=\"+Inf\"} 3\n"))
        #expect(text.contains("t_duration_seconds_count 3\n"))
        #expect(text.contains("t_depth 3\n"))
    }

    @Test("escapes quotes, backslashes and newlines in label values")
    func escapesLabels() {
        let registry = MetricsRegistry()
        let counter = registry.counter("t_total", help: "T.", labels: ["v"])
        counter.increment("a\"b\\c\nd")
        #expect(registry.render().contains(#"t_total{v="a\"b\\c\nd"} 1"#))
    }
}
