extension Connection {
    /// The client address of a request with `head` on this connection: the peer, or what a trusted proxy
    /// reports for it (`HTTPServer.Configuration.trustedProxies`, see `ClientAddressResolver`). Nil only when
    /// the peer's address is not an IP address, which a TCP listener never produces.
    func clientAddress(for head: HTTPRequestHead) -> IPAddress? {
        guard let peer = peerAddress else { return nil }
        let trusted = unsafe loop.shared.configuration.trustedProxies
        guard !trusted.isEmpty else { return peer }
        return ClientAddressResolver(trustedProxies: trusted).clientAddress(peer: peer, headers: head.headers)
    }
}
