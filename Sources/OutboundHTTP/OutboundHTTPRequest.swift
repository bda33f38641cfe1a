/// One outbound request: method, URL, header fields and body.
public struct OutboundHTTPRequest: Sendable {
    /// The request method.
    public var method: OutboundHTTPMethod
    /// Where the request goes (already checked by the URL rule).
    public var url: OutboundURL
    /// Header fields in order; names are RFC 9110 tokens, values visible ASCII, space and tab (checked when sent).
    /// `User-Agent: tokenvend` is sent unless given here; `Expect: 100-continue` never is.
    public var headers: [(name: String, value: String)]
    /// The body, sent with its length; `nil` sends none.
    public var body: [UInt8]?

    /// Creates a request.
    public init(
        method: OutboundHTTPMethod = .get, url: OutboundURL, headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Whether every header name is a token (RFC 9110 §5.1) and every value a field value (§5.5: visible ASCII,
    /// space and tab; no CR, LF, NUL or other controls, no obs-text).
    public var hasValidHeaders: Bool {
        headers.allSatisfy { Self.isToken($0.name) && Self.isFieldValue($0.value) }
    }

    /// RFC 9110 §5.1 field name: one or more tchar.
    public static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
                }
            }
    }

    /// RFC 9110 §5.5 field value: visible ASCII, space and tab.
    public static func isFieldValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
    }
}

/// An HTTP request method.
public struct OutboundHTTPMethod: Sendable, Hashable, CustomStringConvertible {
    /// The method's name, as sent.
    public let rawValue: String

    /// A method by name (an RFC 9110 token).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public static let get = OutboundHTTPMethod("GET")
    public static let head = OutboundHTTPMethod("HEAD")
    public static let post = OutboundHTTPMethod("POST")
    public static let put = OutboundHTTPMethod("PUT")
    public static let patch = OutboundHTTPMethod("PATCH")
    public static let delete = OutboundHTTPMethod("DELETE")

    /// The name.
    public var description: String { rawValue }
}
