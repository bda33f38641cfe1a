import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that hold a connection without completing a request: they neither outlast the request timeout nor
/// lock newcomers out at `maxConnections`.
@Suite(.serialized, .tags(.integration), .timeLimit(.minutes(1))) struct SlowClientTests {
    static let bodyHead = "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n"

    @Test("a body trickling one byte per pause gets 408 at the request timeout")
    func tricklingBodyTimesOut() async throws {
        let configuration = HTTPServer.Configuration(
            requestTimeout: .milliseconds(600), bodyIdleTimeout: .seconds(5), eventLoopCount: 1)
        try await withServer(configuration) { _, port in
            let response = try await offPool { () -> TestResponse? in
                let client = try TestClient(port: port)
                try client.send(Self.bodyHead)
                let started = ContinuousClock.now
                // A byte every 100 ms, well inside the body idle timeout, for 1.5 s: past the request timeout.
                while ContinuousClock.now - started < .milliseconds(1500) {
                    guard (try? client.send("a")) != nil else { break }
                    usleepMilliseconds(100)
                }
                return try client.readResponse()
            }
            #expect(response?.status == 408)
        }
    }

    @Test("at maxConnections trickling bodies are displaced, oldest first, and a new client is answered")
    func tricklingBodiesAreDisplaced() async throws {
        let configuration = HTTPServer.Configuration(maxConnections: 3, eventLoopCount: 1)
        try await withServer(configuration) { _, port in
            let result = try await offPool { () -> (Int?, [Bool]) in
                var trickling: [TestClient] = []
                for _ in 0..<3 {
                    let client = try TestClient(port: port)
                    try client.send(Self.bodyHead + "a")
                    trickling.append(client)
                    usleepMilliseconds(20)
                }
                for client in trickling { try client.send("b") }  // fresh progress on each: last byte is no rank
                let newcomer = try TestClient(port: port)
                try newcomer.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                let status = try newcomer.readResponse()?.status
                return (status, [trickling[0].waitForClose()])
            }
            #expect(result.0 == 200)
            #expect(result.1 == [true])
        }
    }
}

func usleepMilliseconds(_ milliseconds: Int) {
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    _ = nanosleep(&request, nil)
}
