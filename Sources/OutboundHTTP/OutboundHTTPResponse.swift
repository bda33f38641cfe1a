/// An answer of any status (the caller checks ``status``).
public struct OutboundHTTPResponse: Sendable {
    /// The final status (never 1xx; a 3xx when redirects are not followed).
    public var status: Int
    /// The final head's fields in order, values without surrounding spaces (folded lines joined).
    public var headers: [(name: String, value: String)]
    /// The body: complete, at most the client's limit; empty when the client discards non-2xx bodies.
    public var body: [UInt8]
    /// The URL that answered (the request's, or the last redirect's).
    public var url: OutboundURL

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8], url: OutboundURL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The values of every field named `name` (any case), joined with `, ` (RFC 9110 §5.3); `nil` when absent.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        let values = headers.filter { $0.name.lowercased() == wanted }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The `Cache-Control` value, if any.
    public var cacheControl: String? { header("Cache-Control") }
}
