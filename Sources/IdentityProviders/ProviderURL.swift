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
    static func isAcceptable(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            !host.isEmpty, url.user == nil, url.password == nil
        else { return false }
        switch scheme {
        case "https": return true
        case "http": return loopbackHosts.contains(host)
        default: return false
        }
    }
}
