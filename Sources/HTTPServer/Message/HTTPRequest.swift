/// A complete request as handlers see it: head, body, path parameters and connection facts.
public struct HTTPRequest: Sendable {
    /// The method token.
    public var method: HTTPMethod { head.method }
    /// The path without query (raw, not percent-decoded).
    public var path: String { head.path }
    /// The query without `?`, or nil.
    public var query: String? { head.query }
    /// HTTP/1.0 or HTTP/1.1.
    public var version: HTTPVersion { head.version }
    /// The header fields; lookups are case-insensitive.
    public var headers: HTTPHeaders { head.headers }
    /// The parsed head.
    public var head: HTTPRequestHead
    /// The body bytes (at most `maxBodyBytes`).
    public var body: [UInt8]
    /// Trailer fields of a chunked body.
    public var trailers: HTTPHeaders
    /// Path parameters from the matched route (`/sessions/:id` → `["id": "..."]`).
    public var parameters: [String: String]
    /// The peer address, `"ip:port"` (or `"[ip]:port"`).
    public var remoteAddress: String
    /// The client's address: the peer's, or the one a trusted proxy reports (`ClientAddressResolver`);
    /// nil when the request was built without one (tests).
    public var clientAddress: IPAddress?
    /// The request id: the client's `X-Request-Id` when it is a sane token, else generated.
    public var requestID: String

    /// Creates a request (tests build them directly).
    public init(
        head: HTTPRequestHead, body: [UInt8] = [], trailers: HTTPHeaders = HTTPHeaders(),
        parameters: [String: String] = [:], remoteAddress: String = "", requestID: String = ""
    ) {
        self.head = head
        self.body = body
        self.trailers = trailers
        self.parameters = parameters
        self.remoteAddress = remoteAddress
        self.requestID = requestID
    }
}
