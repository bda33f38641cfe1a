import Foundation
import Store
import Synchronization

@testable import HTTPServer
@testable import TokenService

/// Runs requests through a `TokenServer`'s real router and handlers without a socket: the request is built as
/// the connection would build it (head, body, request id, client address 127.0.0.1), the handler runs (inline
/// or async), a thrown error becomes the error body the server would send, and the answer is recorded in the
/// server's metrics as the server's observer would record it.
///
/// What it leaves out, because the connection does it: parsing and framing, `Date`, keep-alive and
/// `Connection`, the access-log line, the connection limits and timeouts. Test those in ``TestServer/Mode/socket``.
final class RouteDriver: Sendable {
    let server: TokenServer
    private let requestIDs = Mutex(RequestIDGenerator())

    init(server: TokenServer) {
        self.server = server
    }

    /// Closes the server's database (what `TokenServer.shutdown()` does after draining a started server).
    func close() {
        server.database.close()
    }

    /// The answer to `method path` with `headers` and `body`; header names lowercased, repeated fields joined
    /// with `, ` as URLSession joins them.
    func respond(_ method: String, _ target: String, headers: [String: String], body: [UInt8]) async
        -> TestResponse
    {
        let started = ContinuousClock.now
        var fields: HTTPHeaders = ["Host": "127.0.0.1"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.add(name: name, value: value) }
        if !body.isEmpty { fields.add(name: "Content-Length", value: String(body.count)) }
        let query = target.firstIndex(of: "?")
        let head = HTTPRequestHead(
            method: HTTPMethod(method), target: target, path: query.map { String(target[..<$0]) } ?? target,
            query: query.map { String(target[target.index(after: $0)...]) }, version: .http1_1, headers: fields,
            contentLength: body.isEmpty ? nil : body.count, isChunked: false, keepAlive: true,
            expectsContinue: false)
        let requestID =
            head.headers["X-Request-Id"].flatMap { RequestIDGenerator.isSane($0) ? $0 : nil }
            ?? requestIDs.withLock { $0.next() }
        let context = RequestContext(requestID: requestID, logger: server.logger)
        let peer = IPAddress(ipv4: 0x7F00_0001)
        context.clientAddress = ClientAddressResolver(trustedProxies: server.http.configuration.trustedProxies)
            .clientAddress(peer: peer, headers: head.headers)
        let response: HTTPResponse
        switch server.http.shared.router.match(head.method, path: head.path) {
        case .handler(let handler, let parameters, let route):
            context.route = route
            var request = HTTPRequest(
                head: head, body: body, parameters: parameters, remoteAddress: "127.0.0.1:40000",
                requestID: requestID)
            request.clientAddress = context.clientAddress
            response = await Self.run(handler, request, context)
        case .methodNotAllowed(let allow):
            response = .error(
                status: .methodNotAllowed, code: "method_not_allowed",
                message: "The method is not allowed for this resource.",
                headers: ["Allow": allow.map(\.rawValue).joined(separator: ", ")])
        case .notFound:
            response = .error(status: .notFound, code: "not_found", message: "No such resource.")
        }
        let elapsed = ContinuousClock.now - started
        server.metrics.record(
            CompletedRequest(
                method: method, route: context.route, status: response.status,
                durationMicroseconds: UInt64(elapsed / .microseconds(1))))
        var answer: [String: String] = [:]
        for field in response.headers {
            let name = field.name.lowercased()
            answer[name] = answer[name].map { "\($0), \(field.value)" } ?? field.value
        }
        answer["x-request-id"] = requestID
        answer["content-length"] = String(response.body.count)
        return TestResponse(
            status: response.status.code, headers: answer, body: Data(head.method == .head ? [] : response.body))
    }

    private static func run(_ handler: Router.Handler, _ request: HTTPRequest, _ context: RequestContext) async
        -> HTTPResponse
    {
        do {
            switch handler {
            case .sync(let handler):
                return try handler(request, context)
            case .async(let handler):
                return try await handler(request, context)
            case .syncOrAsync(let handler):
                switch try handler(request, context) {
                case .response(let response): return response
                case .async(let work): return try await work()
                }
            }
        } catch {
            return Connection.errorResponse(error, context: context)
        }
    }
}
