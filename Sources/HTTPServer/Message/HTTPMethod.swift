/// A request method token (RFC 9110 §9). The parser accepts only the methods in `known` (exact case) and answers
/// any other token, `CONNECT` and lower-case ones included, with 501 (RFC 9110 §9.1); the router matches exactly.
public struct HTTPMethod: Sendable, Hashable, CustomStringConvertible {
    /// The method as sent, case-sensitive (RFC 9110 §9.1).
    public let rawValue: String

    /// Creates a method from its token.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let get = HTTPMethod("GET")
    public static let head = HTTPMethod("HEAD")
    public static let post = HTTPMethod("POST")
    public static let put = HTTPMethod("PUT")
    public static let patch = HTTPMethod("PATCH")
    public static let delete = HTTPMethod("DELETE")
    public static let options = HTTPMethod("OPTIONS")
    public static let trace = HTTPMethod("TRACE")
    public static let query = HTTPMethod("QUERY")

    /// The methods the server recognises: those of RFC 9110 §9.3 but `CONNECT` (which only a proxy implements),
    /// `PATCH` (RFC 5789) and `QUERY` (RFC 10008). A route that does not take one answers 405 with `Allow`; no
    /// route takes TRACE or QUERY, so TRACE is never echoed. A fixed set, so a method can label a metric without
    /// letting clients create series.
    public static let known: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options, .trace, .query]

    /// Whether this is one of `known` (case-sensitive: `get` is not `GET`).
    public var isKnown: Bool { Self.known.contains(self) }
}

/// The protocol version of a request: HTTP/1.0 or HTTP/1.1 (other 1.x minors are treated as 1.1).
public enum HTTPVersion: Sendable, Hashable {
    /// HTTP/1.0: the server closes the connection after the response.
    case http1_0
    /// HTTP/1.1 (and any later 1.x minor version).
    case http1_1
}
