import Logging
import StructuredLogging
import Synchronization
import Testing

@testable import HTTPServer

/// Keeps every record it is given; records are guarded by a `Mutex`.
final class CapturingLogHandler: LogHandler, Sendable {
    let records = Mutex<[(message: String, metadata: Logger.Metadata)]>([])
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .info }
        set {}
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    func log(event: LogEvent) {
        records.withLock { $0.append((event.message.description, event.metadata ?? [:])) }
    }
}

@Suite(.tags(.integration), .timeLimit(.minutes(1))) struct AccessLogTests {
    @Test("writes one access line per request with id, method, path without query, status, duration, user.id")
    func accessLine() async throws {
        let handler = CapturingLogHandler()
        let logger = Logger(label: "access") { _ in handler }
        let server = HTTPServer(
            configuration: .init(port: 0), router: TestRoutes.router(), logger: logger)
        let port = try server.start()
        let responses = try await offPool {
            let client = try TestClient(port: port)
            try client.send("GET /healthz?x=1 HTTP/1.1\r\nHost: t\r\nX-Request-Id: r-1\r\n\r\n")
            try client.send("GET /slow HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            return [try client.readResponse()?.status, try client.readResponse()?.status]
        }
        await server.shutdown(gracePeriod: .seconds(1))
        #expect(responses == [200, 200])
        let lines = handler.records.withLock { $0 }.filter { $0.message == "request" }
        #expect(lines.count == 2)
        let first = try #require(lines.first?.metadata)
        #expect(first["request.id"] == "r-1")
        #expect(first["http.method"] == "GET")
        #expect(first["http.path"] == "/healthz")
        #expect(first["http.status"]?.description == "200")
        #expect(first["http.duration_ms"] != nil)
        #expect(lines.last?.metadata["user.id"] == "u1")
    }
}

@Suite(.tags(.integration), .timeLimit(.minutes(1))) struct QuietAccessLineTests {
    @Test("a handler that sets logsSuccessfulAccess false gets no access line when it succeeds, one when it fails")
    func quietSuccess() async throws {
        let handler = CapturingLogHandler()
        let logger = Logger(label: "access") { _ in handler }
        let observed = Mutex<[(route: String?, status: Int)]>([])
        var router = Router()
        router.get("/probe") { request, context in
            context.logsSuccessfulAccess = false
            if request.query == "fail=1" { throw TeapotError() }
            return .json(bytes: Array(#"{"status":"ok"}"#.utf8))
        }
        router.get("/probe-async") { _, context async in
            context.logsSuccessfulAccess = false
            return HTTPResponse(status: .serviceUnavailable)
        }
        router.get("/loud") { _, _ in HTTPResponse(status: .ok) }
        let server = HTTPServer(
            configuration: .init(port: 0), router: router, logger: logger,
            observer: { completed in observed.withLock { $0.append((completed.route, completed.status.code)) } })
        let port = try server.start()
        let statuses = try await offPool {
            let client = try TestClient(port: port)
            try client.send("GET /probe HTTP/1.1\r\nHost: t\r\nX-Request-Id: quiet-1\r\n\r\n")
            try client.send("GET /probe HTTP/1.1\r\nHost: t\r\nX-Request-Id: quiet-2\r\n\r\n")
            try client.send("GET /probe?fail=1 HTTP/1.1\r\nHost: t\r\nX-Request-Id: failed-1\r\n\r\n")
            try client.send("GET /probe-async HTTP/1.1\r\nHost: t\r\nX-Request-Id: failed-2\r\n\r\n")
            try client.send(
                "POST /probe HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nX-Request-Id: wrong-method\r\n\r\n")
            try client.send("GET /loud HTTP/1.1\r\nHost: t\r\nX-Request-Id: loud-1\r\nConnection: close\r\n\r\n")
            return try (0..<6).map { _ in try client.readResponse()?.status }
        }
        await server.shutdown(gracePeriod: .seconds(1))
        #expect(statuses == [200, 200, 429, 503, 405, 200])
        let lines = handler.records.withLock { $0 }.filter { $0.message == "request" }
        let ids = lines.compactMap { $0.metadata["request.id"]?.description }
        #expect(ids == ["failed-1", "failed-2", "wrong-method", "loud-1"])
        let seen = observed.withLock { $0 }
        #expect(seen.count == 6, "the observer sees every request, logged or not")
        #expect(seen.filter { $0.route == "/probe" && $0.status == 200 }.count == 2)
    }
}
