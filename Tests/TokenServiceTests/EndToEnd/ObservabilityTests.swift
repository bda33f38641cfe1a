import CoreMetrics
import Foundation
import Prometheus
import Synchronization
import Testing
import TokenServiceTesting

/// The executable's hand-over: a metrics registry shared with swift-metrics, and the log output's flush.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct ObservabilityTests {
    @Test("a swift-metrics Counter made through a PrometheusMetricsFactory over the server's registry is on /metrics")
    func libraryMetricsOnMetricsEndpoint() async throws {
        let registry = PrometheusCollectorRegistry()
        // What `tokenvend serve` bootstraps globally, handed in instead (bootstrap is once per process).
        let factory = PrometheusMetricsFactory(registry: registry)
        let server = try await TestServer(metricsRegistry: registry)
        let queries = CoreMetrics.Counter(
            label: "library_queries_total", dimensions: [("db", "main")], factory: factory)
        queries.increment(by: 2)
        let response = try await server.request("GET", "/metrics")
        await server.stop()
        #expect(response.status == 200)
        #expect(response.text.contains(#"library_queries_total{db="main"} 2"# + "\n"))
        #expect(response.text.contains("# TYPE tokenvend_password_hash_queue_depth gauge\n"))
    }

    @Test("the server calls the flush it was given after socket events and when it stops")
    func flushHandedDown() async throws {
        let flushes = Mutex(0)
        let server = try await TestServer(flush: { flushes.withLock { $0 += 1 } })
        _ = try await server.request("GET", "/healthz")
        // The loop flushes after the batch that wrote the response, which may end just after the client has it.
        for _ in 0..<200 where flushes.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        let afterRequest = flushes.withLock { $0 }
        #expect(afterRequest >= 1)
        await server.stop()
        #expect(flushes.withLock { $0 } > afterRequest)
    }
}
