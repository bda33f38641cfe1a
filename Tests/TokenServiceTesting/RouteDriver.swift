import Foundation
import HTTPServer
import TokenService

/// Runs requests through a `TokenServer`'s real router and handlers without a socket (`TokenServer.respond`):
/// the request id, the client address 127.0.0.1, the handler (inline or async), a thrown error mapped to the
/// error body the server sends, and the answer counted in the server's metrics.
///
/// What it leaves out, because the connection does it: parsing and framing, `Date`, keep-alive and
/// `Connection`, the access-log line, the connection limits and timeouts. Test those in ``TestServer/Mode/socket``.
struct RouteDriver: Sendable {
    let server: TokenServer

    /// The answer to `method target` with `headers` and `body`; header names lowercased, repeated fields joined
    /// with `, ` as URLSession joins them, plus the `X-Request-Id` and `Content-Length` the server adds.
    func respond(_ method: String, _ target: String, headers: [String: String], body: [UInt8]) async
        -> TestResponse
    {
        var fields: HTTPHeaders = ["Host": "127.0.0.1"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.add(name: name, value: value) }
        if !body.isEmpty { fields.add(name: "Content-Length", value: String(body.count)) }
        let (response, requestID) = await server.respond(
            method: HTTPMethod(method), target: target, headers: fields, body: body, peer: IPAddress(ipv4: 0x7F00_0001))
        var answer: [String: String] = [:]
        for field in response.headers {
            let name = field.name.lowercased()
            answer[name] = answer[name].map { "\($0), \(field.value)" } ?? field.value
        }
        answer["x-request-id"] = requestID
        answer["content-length"] = String(response.body.count)
        return TestResponse(
            status: response.status.code, headers: answer, body: Data(method == "HEAD" ? [] : response.body))
    }
}
