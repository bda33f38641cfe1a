/// How an app's `redirect_uri` is matched against `identityProviders.<name>.redirectURIs`: exactly, byte for byte
/// (Swift's `==` on strings compares canonical equivalents, so `\u{212A}` would equal `K`),
/// except that a loopback entry (`http://127.0.0.1/…` or `http://[::1]/…`) matches the same URI with any port,
/// since a native app listens on a port the system gives it (RFC 8252 §7.3).
enum RedirectURIMatch {
    /// True when `uri` is one of `registered` by the rule above.
    static func isRegistered(_ uri: String, in registered: [String]) -> Bool {
        if registered.contains(where: { sameBytes($0, uri) }) { return true }
        guard let presented = loopbackWithoutPort(uri) else { return false }
        return registered.contains { loopbackWithoutPort($0).map { sameBytes($0, presented) } ?? false }
    }

    /// Whether `a` and `b` are the same UTF-8 bytes (not merely canonically equivalent).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// `http://127.0.0.1:PORT/rest` → `http://127.0.0.1/rest` (and `[::1]` alike); nil for any other URI, or a
    /// port outside 1…65535.
    static func loopbackWithoutPort(_ uri: String) -> String? {
        for host in ["http://127.0.0.1", "http://[::1]"] where uri.hasPrefix(host) {
            let rest = uri.dropFirst(host.count)
            guard rest.first == ":" else {
                return rest.isEmpty || rest.first == "/" || rest.first == "?" ? host + rest : nil
            }
            let afterColon = rest.dropFirst()
            let port = afterColon.prefix { $0.isASCII && $0.isNumber }
            guard (1...5).contains(port.count), let number = Int(port), (1...65535).contains(number) else {
                return nil
            }
            let tail = afterColon.dropFirst(port.count)
            guard tail.isEmpty || tail.first == "/" || tail.first == "?" else { return nil }
            return host + tail
        }
        return nil
    }
}
