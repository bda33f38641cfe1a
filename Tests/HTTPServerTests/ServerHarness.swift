import HTTPServerTesting
import Logging
import Testing

@testable import HTTPServer

/// Starts a server on 127.0.0.1 port 0 with test routes, runs `body`, and shuts the server down on every path.
func withServer(
    _ configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    _ body: (HTTPServer, Int) async throws -> Void
) async throws {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, router: TestRoutes.router(), logger: Logger(label: "test"))
    let port = try server.start()
    do {
        try await body(server, port)
    } catch {
        await server.shutdown(gracePeriod: .zero)
        throw error
    }
    await server.shutdown(gracePeriod: .zero)
}

struct TeapotError: HTTPResponseError {
    var status: HTTPStatus { HTTPStatus(code: 429) }
    var errorCode: String { "rate_limited" }
    var publicMessage: String { "Slow down." }
    var headers: HTTPHeaders { ["Retry-After": "7"] }
}

struct SecretError: Error {}

enum TestRoutes {
    static func router() -> Router {
        var router = Router()
        router.get("/healthz") { _, _ in .json(bytes: Array(#"{"status":"ok"}"#.utf8)) }
        router.post("/echo") { request, _ in
            var response = HTTPResponse.json(bytes: request.body)
            if let trailer = request.trailers["x-checksum"] { response.headers.add(name: "X-Trailer", value: trailer) }
            return response
        }
        router.get("/slow") { _, context async throws in
            try await Task.sleep(for: .milliseconds(300))
            context.accessLogMetadata["user.id"] = "u1"
            return HTTPResponse(body: Array("slow".utf8))
        }
        router.get("/fast") { _, _ in HTTPResponse(body: Array("fast".utf8)) }
        router.get("/lingering") { _, _ async throws in
            try await Task.sleep(for: .milliseconds(1500))
            return HTTPResponse(body: Array("lingering".utf8))
        }
        router.get("/big") { _, _ in HTTPResponse(body: [UInt8](repeating: 0x61, count: 65536)) }
        router.get("/limited") { _, _ in throw TeapotError() }
        router.get("/broken") { _, _ in throw SecretError() }
        router.on(
            .get, "/either/:mode",
            .syncOrAsync { request, _ in
                guard request.parameters["mode"] == "later" else {
                    return .response(HTTPResponse(body: Array("now".utf8)))
                }
                return .async {
                    try await Task.sleep(for: .milliseconds(50))
                    return HTTPResponse(body: Array("later".utf8))
                }
            })
        router.get("/items/:id") { request, _ in HTTPResponse(body: Array((request.parameters["id"] ?? "").utf8)) }
        return router
    }
}

/// Runs blocking client I/O on a Dispatch thread, so the cooperative pool stays free for async handlers.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await RawHTTP.offPool(work)
}
