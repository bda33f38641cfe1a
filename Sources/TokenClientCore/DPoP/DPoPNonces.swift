import AuthAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The last `DPoP-Nonce` each server origin sent (RFC 9449 §8), from any answer: the next proof to that origin
/// carries it.
final class DPoPNonceBook: Sendable {
    private let nonces = Locked<[String: String]>([:])

    /// The nonce to put in a proof for `url`, if its origin sent one.
    func nonce(for url: URL) -> String? {
        nonces.withLock { $0[Self.origin(of: url)] }
    }

    /// Remembers the `DPoP-Nonce` of `response` (to a request for `url`), when it has one.
    /// - Returns: true when the response carried a nonce.
    @discardableResult
    func record(_ response: TransportResponse, for url: URL) -> Bool {
        guard let nonce = response.value(forHTTPHeaderField: HeaderName.dpopNonce)?.trimmingOptionalWhitespace(),
            !nonce.isEmpty
        else { return false }
        nonces.withLock { $0[Self.origin(of: url)] = nonce }
        return true
    }

    /// `scheme://host:port`, lowercased, the default port made explicit.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
