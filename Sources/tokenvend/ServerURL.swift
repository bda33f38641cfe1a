import FoundationEssentials

/// Parses and compares the `--url` of the client commands.
enum ServerURL {
    /// Used when neither `--url`, `TOKENVEND_URL` nor a recorded login names a server.
    static let defaultText = "http://127.0.0.1:8080/"
    /// The environment variable read when `--url` is absent.
    static let environmentVariable = "TOKENVEND_URL"

    /// The URL given explicitly: `flag`, else a non-empty `TOKENVEND_URL`, else `nil`.
    static func explicitText(flag: String?, environment: [String: String]) -> String? {
        if let flag { return flag }
        if let value = environment[environmentVariable], !value.isEmpty { return value }
        return nil
    }

    /// Parses an API root: `http` or `https`, a host, no credentials, query or fragment.
    /// - Throws: ``ClientCommandError/usage(_:)`` naming what is wrong.
    static func parse(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw ClientCommandError.usage("--url: not a URL: \(text)")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ClientCommandError.usage("--url: the scheme must be http or https: \(text)")
        }
        guard let host = url.host(), !host.isEmpty else {
            throw ClientCommandError.usage("--url: no host: \(text)")
        }
        guard url.user() == nil, url.password() == nil, url.query() == nil, url.fragment() == nil else {
            throw ClientCommandError.usage("--url: give only scheme, host, port and path: \(text)")
        }
        return url
    }

    /// Whether two API roots name the same place (ignoring a trailing slash and the case of scheme and host).
    static func same(_ first: URL, _ second: URL) -> Bool {
        canonical(first) == canonical(second)
    }

    /// A warning when `url` would carry passwords and tokens in clear text off this machine, else `nil`.
    static func insecureWarning(for url: URL) -> String? {
        guard url.scheme?.lowercased() == "http", let host = url.host()?.lowercased() else { return nil }
        let loopback = host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        return loopback ? nil : "warning: \(host) is reached over plain http; credentials travel unencrypted"
    }

    private static func canonical(_ url: URL) -> String {
        var path = url.path()
        while path.hasSuffix("/") { path.removeLast() }
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(url.scheme?.lowercased() ?? "")://\(url.host()?.lowercased() ?? "")\(port)\(path)"
    }
}
