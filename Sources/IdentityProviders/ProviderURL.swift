#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The rule for every URL of a provider: https with a host, or http to a loopback host (tests, local providers);
/// no user info. The same rule as the libcurl clients apply before sending.
enum ProviderURL {
    /// The loopback hosts http is allowed to.
    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]

    /// Whether `text` is an acceptable provider URL.
    ///
    /// - Parameter allowingLoopbackHTTP: Whether http to a loopback host is accepted (default true). False for
    ///   the endpoints of a discovery document fetched from a provider that is not itself on loopback: a remote
    ///   document must not point the code exchange (client secret, code) at a service on this host.
    static func isAcceptable(_ text: String, allowingLoopbackHTTP: Bool = true) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            !host.isEmpty, url.user == nil, url.password == nil
        else { return false }
        switch scheme {
        case "https": return true
        case "http": return allowingLoopbackHTTP && loopbackHosts.contains(host)
        default: return false
        }
    }

    /// Whether `text` is a URL (any scheme) to a loopback host.
    static func isLoopback(_ text: String) -> Bool {
        guard let host = URL(string: text)?.host?.lowercased() else { return false }
        return loopbackHosts.contains(host)
    }
}
