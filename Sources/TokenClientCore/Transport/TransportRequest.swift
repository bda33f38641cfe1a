#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One HTTP request as an ``HTTPTransport`` sends it: method, URL, header fields, body and time limit.
///
/// The client's own value type, so the session, the stores and the token providers need no `URLRequest` (which on
/// Linux lives in FoundationNetworking, with libcurl, GnuTLS, Kerberos and LDAP behind it). `TokenClient`
/// converts it to and from `URLRequest` for `URLSession` and for stacks that send requests themselves.
///
/// Header names are case-insensitive (RFC 9110 §5.1): ``setValue(_:forHTTPHeaderField:)`` replaces a field of any
/// case, and ``value(forHTTPHeaderField:)`` finds one.
public struct TransportRequest: Sendable {
    /// The method, e.g. `GET` or `POST`.
    public var method: String
    /// The absolute URL the request goes to.
    public var url: URL
    /// The header fields, one value per name.
    public var headerFields: [String: String]
    /// The body; `nil` for none.
    public var body: Data?
    /// The longest the whole exchange may take, in seconds. Default: 60 (as `URLRequest`).
    public var timeoutInterval: TimeInterval
    /// The request of another stack this one was converted from (`TokenClient`'s `URLRequest`), so converting back
    /// keeps what this type does not model: a body stream, the cache policy, the network service type.
    package var origin: (any Sendable)?
    /// False when the body cannot be sent twice (it was a stream the transport reads once): the session then never
    /// replays the request after a 401.
    package var isReplayable = true

    /// Creates a request.
    /// - Parameters:
    ///   - method: the method; `GET` by default.
    ///   - url: the absolute URL.
    ///   - headerFields: the header fields; none by default.
    ///   - body: the body; none by default.
    ///   - timeoutInterval: the limit for the whole exchange, in seconds; 60 by default.
    public init(
        method: String = "GET", url: URL, headerFields: [String: String] = [:], body: Data? = nil,
        timeoutInterval: TimeInterval = 60
    ) {
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
        self.timeoutInterval = timeoutInterval
    }

    /// The value of the header field `name` (any case), or `nil`.
    public func value(forHTTPHeaderField name: String) -> String? {
        HeaderLookup.value(of: name, in: headerFields)
    }

    /// Sets the header field `name` to `value`, replacing a field of that name in any case; `nil` removes it.
    public mutating func setValue(_ value: String?, forHTTPHeaderField name: String) {
        for key in headerFields.keys where key.lowercased() == name.lowercased() { headerFields[key] = nil }
        if let value { headerFields[name] = value }
    }
}
