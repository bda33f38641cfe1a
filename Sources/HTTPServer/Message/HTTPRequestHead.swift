/// The parsed request line and header section of one request, with the framing facts the parser derived.
public struct HTTPRequestHead: Sendable, Equatable {
    /// The method token.
    public var method: HTTPMethod
    /// The request target as sent (origin-form, absolute-form or `*`).
    public var target: String
    /// The path of the target, without query; `/` for absolute-form targets without a path, `*` for `OPTIONS *`.
    public var path: String
    /// The query after `?`, without the `?`, or nil.
    public var query: String?
    /// HTTP/1.0 or HTTP/1.1.
    public var version: HTTPVersion
    /// The header fields in order.
    public var headers: HTTPHeaders
    /// The body length from `Content-Length`, or nil when absent (or chunked).
    public var contentLength: Int?
    /// Whether the body is chunked (`Transfer-Encoding: chunked`).
    public var isChunked: Bool
    /// Whether the connection may stay open after this request (HTTP/1.1 without `Connection: close`;
    /// HTTP/1.0 always closes).
    public var keepAlive: Bool
    /// Whether the client sent `Expect: 100-continue`.
    public var expectsContinue: Bool

    /// Whether a body follows the head.
    public var hasBody: Bool { isChunked || (contentLength ?? 0) > 0 }
}
