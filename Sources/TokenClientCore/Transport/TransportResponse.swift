#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The head of one HTTP answer as an ``HTTPTransport`` returns it (the body travels beside it as `Data`).
///
/// The client's own value type, for the same reason as ``TransportRequest``; `TokenClient` converts it to and from
/// `HTTPURLResponse`.
public struct TransportResponse: Sendable {
    /// The status code, e.g. 200 or 401.
    public var statusCode: Int
    /// The header fields, one value per name (a repeated field joined with `, `, RFC 9110 §5.3).
    public var headerFields: [String: String]
    /// The URL the answer came from (after redirects), when the transport knows it.
    public var url: URL?
    /// The answer of another stack this one was converted from (`TokenClient`'s `HTTPURLResponse`), handed back
    /// unchanged by the conversion the other way.
    package var origin: (any Sendable)?

    /// Creates a response head.
    /// - Parameters:
    ///   - statusCode: the status code.
    ///   - headerFields: the header fields; none by default.
    ///   - url: the URL answered; unknown by default.
    public init(statusCode: Int, headerFields: [String: String] = [:], url: URL? = nil) {
        self.statusCode = statusCode
        self.headerFields = headerFields
        self.url = url
    }

    /// The value of the header field `name` (any case), or `nil`.
    public func value(forHTTPHeaderField name: String) -> String? {
        HeaderLookup.value(of: name, in: headerFields)
    }
}

/// The one case-insensitive header lookup of ``TransportRequest`` and ``TransportResponse``.
enum HeaderLookup {
    /// The value of `name` in `fields`: the exact spelling first, else any case.
    static func value(of name: String, in fields: [String: String]) -> String? {
        if let exact = fields[name] { return exact }
        let lowered = name.lowercased()
        return fields.first { $0.key.lowercased() == lowered }?.value
    }
}
