#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

extension TransportRequest {
    /// `request` as the core's value. The `URLRequest` itself is kept, so converting back yields it with only the
    /// method, URL, header fields, body and timeout replaced; a request whose body is a stream is never replayed.
    /// - Throws: ``TokenClientError/transport(_:)`` when `request` has no URL.
    public init(_ request: URLRequest) throws(TokenClientError) {
        guard let url = request.url else { throw TokenClientError.transport("the request has no URL") }
        self.init(
            method: request.httpMethod ?? "GET", url: url, headerFields: request.allHTTPHeaderFields ?? [:],
            body: request.httpBody, timeoutInterval: request.timeoutInterval)
        origin = request
        isReplayable = request.httpBodyStream == nil
    }
}

extension URLRequest {
    /// `request` as a `URLRequest`: the one it was converted from, when it was, with the method, URL, header
    /// fields, body (unless that request's body is a stream) and timeout of `request`; else a new one that ignores
    /// local caches.
    public init(_ request: TransportRequest) {
        if let origin = request.origin as? URLRequest {
            self = origin
        } else {
            self.init(url: request.url)
            cachePolicy = .reloadIgnoringLocalCacheData  // a token answer is never replayed from a cache
        }
        url = request.url
        httpMethod = request.method
        allHTTPHeaderFields = request.headerFields
        if httpBodyStream == nil { httpBody = request.body }
        timeoutInterval = request.timeoutInterval
    }
}
