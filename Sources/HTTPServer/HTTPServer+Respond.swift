/// A socket-free way into the router, for tests of the routes and handlers (TokenServiceTesting's router mode,
/// like Hummingbird's `.router` test mode). Package access: not part of the library's public API.
extension HTTPServer {
    /// Answers one request as a connection would, without a socket and whether or not the server was started:
    /// the request id (a sane `X-Request-Id` is echoed), the client address from `peer` and the trusted proxies,
    /// the route match (404 and 405 with `Allow` as the server sends them), the handler of either flavour, a
    /// thrown error mapped to its error body (unexpected errors logged as the server logs them), and the
    /// observer called with the completed request.
    ///
    /// Left out, because the connection does it: parsing and framing, `Content-Length`, `Date`, keep-alive and
    /// `Connection`, the access-log line, limits and timeouts.
    /// - Returns: the handler's response (its body even for `HEAD`) and the request id the server would send.
    package func respond(
        method: HTTPMethod, target: String, headers: HTTPHeaders, body: [UInt8], peer: IPAddress
    ) async -> (response: HTTPResponse, requestID: String) {
        let started = ContinuousClock.now
        let query = target.firstIndex(of: "?")
        let head = HTTPRequestHead(
            method: method, target: target, path: query.map { String(target[..<$0]) } ?? target,
            query: query.map { String(target[target.index(after: $0)...]) }, version: .http1_1, headers: headers,
            contentLength: body.isEmpty ? nil : body.count, isChunked: false, keepAlive: true, expectsContinue: false)
        var generator = RequestIDGenerator()
        let requestID = headers["X-Request-Id"].flatMap { RequestIDGenerator.isSane($0) ? $0 : nil } ?? generator.next()
        let context = RequestContext(requestID: requestID, logger: shared.logger)
        let trusted = shared.configuration.trustedProxies
        context.clientAddress =
            trusted.isEmpty
            ? peer : ClientAddressResolver(trustedProxies: trusted).clientAddress(peer: peer, headers: headers)
        let response: HTTPResponse
        switch shared.router.match(method, path: head.path) {
        case .handler(let handler, let parameters, let route):
            context.route = route
            var request = HTTPRequest(
                head: head, body: body, parameters: parameters, remoteAddress: "\(peer):0", requestID: requestID)
            request.clientAddress = context.clientAddress
            response = await Self.run(handler, request, context)
        case .methodNotAllowed(let allow):
            response = .methodNotAllowed(allow: allow)
        case .notFound:
            response = .notFound
        }
        let elapsed = ContinuousClock.now - started
        shared.observer?(
            CompletedRequest(
                method: method.rawValue, route: context.route, status: response.status,
                durationMicroseconds: UInt64(max(elapsed / .microseconds(1), 0))))
        return (response, requestID)
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
