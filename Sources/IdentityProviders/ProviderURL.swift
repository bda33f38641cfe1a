import OutboundHTTP

/// The rule for every URL of a provider: the outbound URL rule (`OutboundURL`: https with a host, or http to a
/// loopback host for tests and local providers; no user info), the one the clients apply before sending.
enum ProviderURL {
    /// Whether `text` is an acceptable provider URL.
    ///
    /// - Parameter allowingLoopbackHTTP: Whether http to a loopback host is accepted (default true). False for
    ///   the endpoints of a discovery document fetched from a provider that is not itself on loopback: a remote
    ///   document must not point the code exchange (client secret, code) at a service on this host.
    static func isAcceptable(_ text: String, allowingLoopbackHTTP: Bool = true) -> Bool {
        guard let url = try? OutboundURL(text) else { return false }
        return allowingLoopbackHTTP || url.scheme == .https
    }

    /// Whether `text` is an acceptable URL to a loopback host.
    static func isLoopback(_ text: String) -> Bool {
        (try? OutboundURL(text))?.isLoopback ?? false
    }
}
