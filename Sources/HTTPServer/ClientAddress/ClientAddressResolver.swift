/// Decides which address a request comes from: the TCP peer, or, when the peer is a trusted proxy, the
/// client that proxy reports in `X-Forwarded-For` or `Forwarded`.
///
/// Only a peer inside `trustedProxies` is believed. Its report is read from the right (the hop it added
/// itself) leftwards, skipping hops that are themselves trusted proxies; the first hop that is not is the
/// client. Hops further left were written by someone not trusted and are never read. The peer itself is the
/// answer when the peer is not trusted, when neither header is present, when every hop is a trusted proxy,
/// and when the hop reached is not an address (`unknown`, an obfuscated name, garbage): a malformed header
/// never fails the request. When both headers are present they must name the same client; otherwise the peer
/// is the answer, since a proxy that writes only one of them passes the other on from the client unchecked.
///
/// ```swift
/// let resolver = ClientAddressResolver(trustedProxies: [CIDR("10.0.0.0/8")!])
/// resolver.clientAddress(peer: IPAddress("10.0.0.2")!, headers: ["X-Forwarded-For": "198.51.100.7, 10.0.0.1"])
/// // 198.51.100.7
/// ```
public struct ClientAddressResolver: Sendable {
    /// The proxies whose forwarding headers are believed. Default: none (the headers are ignored).
    public let trustedProxies: [CIDR]

    /// A resolver that believes the proxies in `trustedProxies`.
    public init(trustedProxies: [CIDR] = []) {
        self.trustedProxies = trustedProxies
    }

    /// Whether `address` is in one of the trusted ranges.
    public func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// The client address of a request that arrived from `peer` with `headers`.
    public func clientAddress(peer: IPAddress, headers: HTTPHeaders) -> IPAddress {
        guard !trustedProxies.isEmpty, isTrusted(peer) else { return peer }
        let forwardedFor = headers.values(for: "X-Forwarded-For")
        let forwarded = headers.values(for: "Forwarded")
        switch (forwardedFor.isEmpty, forwarded.isEmpty) {
        case (true, true):
            return peer
        case (false, true):
            return client(in: ForwardedHeaders.xForwardedFor(forwardedFor)) ?? peer
        case (true, false):
            return client(in: ForwardedHeaders.forwardedFor(forwarded)) ?? peer
        case (false, false):
            let first = client(in: ForwardedHeaders.xForwardedFor(forwardedFor))
            let second = client(in: ForwardedHeaders.forwardedFor(forwarded))
            guard let first, first == second else { return peer }
            return first
        }
    }

    /// The rightmost hop that is not a trusted proxy; nil when a hop on the way is not an address or when
    /// every hop is trusted.
    func client(in hops: [IPAddress?]) -> IPAddress? {
        for hop in hops.reversed() {
            guard let hop else { return nil }
            if !isTrusted(hop) { return hop }
        }
        return nil
    }
}
