import LoopbackHost

/// An absolute `http` or `https` URL that outbound HTTP may be sent to: the project's one URL rule.
///
/// **The rule** (``Rule/secure``, the default): `https` to any host, or `http` only to a loopback host
/// (``LoopbackHost``: `localhost`, a dotted quad in 127.0.0.0/8, `[::1]`), so secrets never cross a network in
/// clear. ``Rule/plainHTTPAnywhere`` also lets `http` go to any host; it is for the command line's requests to a
/// server the operator names (`tokenvend healthcheck`, the client commands), which warn instead.
///
/// Parsed here, by the same code for every caller, and strictly (what libcurl is then given is rebuilt from the
/// parts, so no other parser can read the text differently):
/// - the scheme is `http` or `https` in any case, followed by `://`;
/// - no user info (`user:pass@`), no fragment (`#…`), only visible ASCII (no spaces, controls, non-ASCII or `\`);
/// - the host is not empty: a name of letters, digits, `-`, `_` and `.` (no empty label; one trailing dot is
///   allowed), or an IPv6 address in brackets without a zone (`[::1]`); percent-encoded hosts are refused;
/// - a port, when written, is 1…65535 in decimal (`http://host:/` is refused);
/// - the path and query are kept as written (an empty path is `/`).
///
/// Scheme and host are compared and rebuilt in lower case; ``text`` is the rebuilt URL.
///
/// ```swift
/// let url = try OutboundURL("https://appleid.apple.com/auth/keys")
/// OutboundURL.accepts("http://127.0.0.1:8080/jwks")        // true (loopback)
/// OutboundURL.accepts("http://127.0.0.1.evil.com/jwks")     // false (a name, not loopback)
/// ```
public struct OutboundURL: Sendable, Hashable, CustomStringConvertible {
    /// Which hosts plain `http` may go to.
    public enum Rule: Sendable, Hashable {
        /// `https` anywhere, `http` only to a loopback host. The default, and the only rule of the server.
        case secure
        /// `http` and `https` anywhere (the command line's requests to a server the operator names).
        case plainHTTPAnywhere
    }

    /// `http` or `https`.
    public enum Scheme: String, Sendable, Hashable {
        case http, https
    }

    /// The scheme, in lower case.
    public let scheme: Scheme
    /// The host in lower case, without the brackets of an IPv6 address.
    public let host: String
    /// The port, when written.
    public let port: Int?
    /// The path and query as written, starting with `/`.
    public let pathAndQuery: String
    /// The rule the URL was accepted under (redirects from it are checked by the same rule).
    public let rule: Rule

    /// Parses `text` and applies `rule`.
    ///
    /// - Throws: ``OutboundHTTPError/refusedURL`` when the text is not such a URL or the rule refuses it.
    public init(_ text: String, rule: Rule = .secure) throws(OutboundHTTPError) {
        guard let parsed = Self.parse(text, rule: rule) else { throw .refusedURL }
        self = parsed
    }

    /// Whether `text` is a URL the rule accepts.
    public static func accepts(_ text: String, rule: Rule = .secure) -> Bool {
        parse(text, rule: rule) != nil
    }

    /// Whether the host is a loopback host (``LoopbackHost/contains(_:)``).
    public var isLoopback: Bool { LoopbackHost.contains(host) }

    /// The URL rebuilt from its parts: `scheme://host[:port]/path?query` (IPv6 hosts in brackets).
    public var text: String {
        let authority = host.contains(":") ? "[\(host)]" : host
        return "\(scheme.rawValue)://\(authority)\(port.map { ":\($0)" } ?? "")\(pathAndQuery)"
    }

    /// Same as ``text``.
    public var description: String { text }

    /// Whether `other` has the same scheme, host and port (an origin, RFC 6454).
    public func isSameOrigin(as other: OutboundURL) -> Bool {
        scheme == other.scheme && host == other.host && effectivePort == other.effectivePort
    }

    private var effectivePort: Int { port ?? (scheme == .https ? 443 : 80) }

    private init(scheme: Scheme, host: String, port: Int?, pathAndQuery: String, rule: Rule) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.pathAndQuery = pathAndQuery
        self.rule = rule
    }

    private static func parse(_ text: String, rule: Rule) -> OutboundURL? {
        let bytes = Array(text.utf8)
        // Visible ASCII only; `\` is a path separator to some parsers; `#` starts a fragment, never sent.
        guard !bytes.isEmpty,
            bytes.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "#") }),
            let separator = text.firstRange(of: "://")
        else { return nil }
        guard let scheme = Scheme(rawValue: text[..<separator.lowerBound].lowercased()) else { return nil }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var pathAndQuery = String(rest[authorityEnd...])
        if !pathAndQuery.hasPrefix("/") { pathAndQuery = "/" + pathAndQuery }
        guard !authority.contains("@"), let (host, port) = splitAuthority(authority) else { return nil }
        let url = OutboundURL(scheme: scheme, host: host, port: port, pathAndQuery: pathAndQuery, rule: rule)
        switch (scheme, rule) {
        case (.https, _), (.http, .plainHTTPAnywhere): return url
        case (.http, .secure): return url.isLoopback ? url : nil
        }
    }

    /// The host (lower case, IPv6 without brackets) and port of an authority without user info.
    private static func splitAuthority(_ authority: Substring) -> (String, Int?)? {
        let host: String
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close].lowercased()
            guard LoopbackHost.isIPv6Address(host) else { return nil }
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else {
            let colon = authority.firstIndex(of: ":")
            host = authority[..<(colon ?? authority.endIndex)].lowercased()
            guard isHostName(host) else { return nil }
            portText = colon.map { authority[authority.index(after: $0)...] }
        }
        guard let portText else { return (host, nil) }
        guard (1...5).contains(portText.count), portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portText), (1...65_535).contains(port)
        else { return nil }
        return (host, port)
    }

    /// Letters, digits, `-`, `_` and `.`; no empty label (one trailing dot allowed).
    private static func isHostName(_ host: String) -> Bool {
        let trimmed = host.hasSuffix(".") ? host.dropLast() : Substring(host)
        guard !trimmed.isEmpty else { return false }
        let labels = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty
                && label.utf8.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                        UInt8(ascii: "-"), UInt8(ascii: "_"):
                        true
                    default: false
                    }
                }
        }
    }
}
