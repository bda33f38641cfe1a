import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// Go's shutdown order: the listener first (new connections refused at once), then idle connections, then
/// in-flight requests, and an outcome that says whether the grace period was enough.
@Suite(.serialized, .tags(.integration), .timeLimit(.minutes(1))) struct ShutdownOrderTests {
    @Test("after shutdown starts a new connect is refused at once while an in-flight request still finishes")
    func listenerClosedFirst() async throws {
        try await withServer(.init(eventLoopCount: 2)) { server, port in
            let busy = try TestClient(port: port)
            try busy.send("GET /lingering HTTP/1.1\r\nHost: t\r\n\r\n")
            try await Task.sleep(for: .milliseconds(50))
            async let outcome = server.shutdown(gracePeriod: .seconds(5))
            // The handler takes 1.5 s; within the first second a connect must be refused, not queued.
            let refusal = try await offPool { () -> (Int32?, Duration) in
                let started = ContinuousClock.now
                while ContinuousClock.now - started < .seconds(1) {
                    let attempt = ContinuousClock.now
                    do {
                        _ = try TestClient(port: port)
                    } catch TestClientError.connect(let error) {
                        return (error, ContinuousClock.now - attempt)
                    }
                    usleepMilliseconds(10)
                }
                return (nil, .zero)
            }
            #expect(refusal.0 == ECONNREFUSED)
            #expect(refusal.1 < .milliseconds(100))
            let response = try #require(try await offPool { try busy.readResponse() })
            #expect(response.body == "lingering")
            #expect(response.headers["connection"] == "close")
            #expect(await outcome == .drained)
        }
    }

    @Test("a handler that outlives the grace period makes the shutdown report it")
    func gracePeriodExpired() async throws {
        try await withServer(.init(eventLoopCount: 1)) { server, port in
            let idle = try TestClient(port: port)
            try idle.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try idle.readResponse()?.status == 200)
            let busy = try TestClient(port: port)
            try busy.send("GET /lingering HTTP/1.1\r\nHost: t\r\n\r\n")
            try await Task.sleep(for: .milliseconds(50))
            let outcome = await server.shutdown(gracePeriod: .milliseconds(200))
            #expect(outcome == .gracePeriodExpired(abandonedConnections: 1))
            #expect(await server.waitUntilStopped() == .gracePeriodExpired(abandonedConnections: 1))
        }
    }
}
