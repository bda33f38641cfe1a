/// RFC 3986 §6.2.2 and §6.2.3 normalisation of an `htu` or a request URI, for comparison only: scheme and host in
/// lower case, the default port dropped, percent-encodings of unreserved characters decoded and the others in
/// upper case, dot segments removed, an empty path as `/`; query and fragment dropped (RFC 9449 §4.3).
public enum DPoPTargetURI {
    /// The normalised form, or nil for a string that is not an absolute `http` or `https` URI with a host.
    ///
    /// Also nil for a URI with userinfo (`user@host`), a port that is not a number up to 65535, a `%` not followed
    /// by two hex digits, or any character a URI cannot hold (space, control characters, non-ASCII, `"<>\^`{|}`).
    /// `HTTPS://Example.COM:443/a/./b/../%7e` gives `https://example.com/a/~`.
    public static func normalized(_ uri: String) -> String? {
        var bytes = Array(uri.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy(URICharacters.isAllowed) else { return nil }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        for index in 0..<colon { bytes[index] = URICharacters.lowercased(bytes[index]) }
        let scheme = bytes[0..<colon]
        let defaultPort: Int
        if scheme.elementsEqual("http".utf8) {
            defaultPort = 80
        } else if scheme.elementsEqual("https".utf8) {
            defaultPort = 443
        } else {
            return nil
        }
        let slashes = Array("//".utf8)
        guard bytes.count >= colon + 3, Array(bytes[(colon + 1)...(colon + 2)]) == slashes else { return nil }

        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { URICharacters.endsAuthority($0) } ?? bytes.count
        let pathEnd = bytes[authorityEnd...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        guard URICharacters.validRest(bytes[(pathEnd ?? bytes.count)...]) else { return nil }
        guard let authority = normalizedAuthority(bytes[authorityStart..<authorityEnd], defaultPort: defaultPort),
            let path = URICharacters.percentNormalized(bytes[authorityEnd..<(pathEnd ?? bytes.count)])
        else { return nil }

        var output = Array(scheme)
        output.append(contentsOf: "://".utf8)
        output.append(contentsOf: authority)
        output.append(contentsOf: removingDotSegments(path))
        return String(decoding: output, as: UTF8.self)
    }

    /// `host[:port]` in lower case without a default or empty port; nil for userinfo, an empty host or a bad port.
    private static func normalizedAuthority(_ authority: ArraySlice<UInt8>, defaultPort: Int) -> [UInt8]? {
        guard !authority.contains(UInt8(ascii: "@")) else { return nil }
        var hostEnd = authority.endIndex
        var port: ArraySlice<UInt8> = []
        if authority.first == UInt8(ascii: "[") {
            // IP-literal (RFC 3986 §3.2.2): everything up to `]`, then nothing or `:port`.
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostEnd = close + 1
            if hostEnd < authority.endIndex {
                guard authority[hostEnd] == UInt8(ascii: ":") else { return nil }
                port = authority[(hostEnd + 1)...]
            }
            let literal = authority[(authority.startIndex + 1)..<close]
            guard !literal.isEmpty, !literal.contains(UInt8(ascii: "[")) else { return nil }
        } else if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            hostEnd = colon
            port = authority[(colon + 1)...]
            guard !authority[authority.startIndex..<colon].contains(UInt8(ascii: "]")) else { return nil }
        }
        let rawHost = authority[authority.startIndex..<hostEnd]
        guard !rawHost.isEmpty, rawHost.first == UInt8(ascii: "[") || !rawHost.contains(UInt8(ascii: "]")),
            var host = URICharacters.percentNormalized(rawHost)
        else { return nil }
        host = URICharacters.lowercasedOutsideEscapes(host)
        guard port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        // RFC 3986 §6.2.3: an empty port or the scheme's default is dropped; leading zeros mean nothing.
        let digits = port.drop { $0 == UInt8(ascii: "0") }
        guard digits.count <= 5 else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard value <= 65535 else { return nil }
        if !port.isEmpty, value != defaultPort {
            host.append(UInt8(ascii: ":"))
            host.append(contentsOf: String(value).utf8)
        }
        return host
    }

    /// RFC 3986 §5.2.4 on an absolute (or empty) path; the empty path becomes `/` (§6.2.3).
    static func removingDotSegments(_ path: [UInt8]) -> [UInt8] {
        guard path.first == UInt8(ascii: "/") else { return Array("/".utf8) }
        let segments = path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var output: [ArraySlice<UInt8>] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment.elementsEqual(".".utf8) {
                if isLast { output.append([]) }
            } else if segment.elementsEqual("..".utf8) {
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append([]) }
            } else {
                output.append(segment)
            }
        }
        var result: [UInt8] = []
        for segment in output {
            result.append(UInt8(ascii: "/"))
            result.append(contentsOf: segment)
        }
        return result.isEmpty ? Array("/".utf8) : result
    }
}
