package import HTTPServer

extension TokenServer {
    /// Answers one request through the service's routes and handlers without a socket (tests' router mode; see
    /// `HTTPServer.respond`); the request is counted in `metrics` as a served one is. Works on a server that was
    /// never started.
    package func respond(
        method: HTTPMethod, target: String, headers: HTTPHeaders, body: [UInt8], peer: IPAddress
    ) async -> (response: HTTPResponse, requestID: String) {
        await http.respond(method: method, target: target, headers: headers, body: body, peer: peer)
    }
}
