#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Where a session's bearer token may go: `baseURL`'s origin (scheme, host and port, RFC 6454) and the hosts the
/// app listed. Anything else (a redirect target, a CDN link in a response, a URL built by mistake) gets the request
/// as the app made it, without the token. `package`: `TokenClient`'s redirect guard keeps credentials on the same
/// origins.
package struct TrustedOrigins: Sendable {
    let scheme: String
    let host: String
    let port: Int?
    let hosts: Set<String>

    package init(baseURL: URL, hosts: Set<String>) {
        scheme = baseURL.scheme?.lowercased() ?? ""
        host = baseURL.host?.lowercased() ?? ""
        port = Self.port(of: baseURL)
        self.hosts = Set(hosts.map { $0.lowercased() })
    }

    /// True when `url` is on the base origin, or on a listed host over https (or the base URL's own scheme).
    package func trusts(_ url: URL?) -> Bool {
        guard let url, let urlHost = url.host?.lowercased(), let urlScheme = url.scheme?.lowercased() else {
            return false
        }
        if urlScheme == scheme, urlHost == host, Self.port(of: url) == port { return true }
        return hosts.contains(urlHost) && (urlScheme == "https" || urlScheme == scheme)
    }

    /// The port, with the scheme's default filled in, so `https://a` and `https://a:443` are one origin.
    private static func port(of url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }
}
