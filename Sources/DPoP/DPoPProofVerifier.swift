#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif
public import JWT

/// Checks a DPoP proof (RFC 9449 §4.3) on its own: size, structure, `typ`, `alg` (one of `algorithms`, never
/// `none` or HMAC), a public `jwk` of that algorithm, the signature by that key, `jti`, `htm`, `htu`, `iat` within
/// `maxAgeSeconds` back and `futureSkewSeconds` ahead, and `ath` whenever an access token is presented. Nonce and
/// replay need state and are the caller's.
///
/// Keys parsed from a `jwk` are cached by the header's bytes (one client signs every proof with the same header),
/// so a repeated key costs no parsing or thumbprint: the signature check is the whole cost.
public struct DPoPProofVerifier: Sendable {
    /// Proofs longer than this are refused before anything else is looked at: 8 KiB.
    public static let maximumByteCount = 8 * 1024
    /// The algorithms a proof may use (asymmetric only).
    public let algorithms: [JWTAlgorithm]
    public let maxAgeSeconds: Int64
    public let futureSkewSeconds: Int64

    /// - Precondition: `algorithms` holds no HMAC algorithm.
    public init(algorithms: [JWTAlgorithm], maxAgeSeconds: Int64, futureSkewSeconds: Int64 = 5) {
        self.algorithms = algorithms
        self.maxAgeSeconds = maxAgeSeconds
        self.futureSkewSeconds = futureSkewSeconds
    }

    /// The verified proof.
    /// - Parameters:
    ///   - proof: the `DPoP` header's value.
    ///   - method: the request's method (`htm` must equal it exactly).
    ///   - targetURI: the URI the request was meant for, without query or fragment (`server.publicURL` + path); both
    ///     it and `htu` are normalised (RFC 3986 §6.2.2, §6.2.3) before they are compared.
    ///   - accessToken: the access token presented with the request, or nil (then `ath` must be absent).
    ///   - now: the clock.
    /// - Throws: the first failed check.
    public func verify(
        _ proof: String, method: String, targetURI: String, accessToken: String?, now: Date
    ) throws(DPoPProofFailure) -> DPoPProof {
        fatalError("PendingIssue35: DPoP module")
    }

    /// Until when a proof issued at `issuedAt` could still be accepted (its `jti` must be remembered that long).
    public func acceptedUntil(issuedAt: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(issuedAt + maxAgeSeconds + futureSkewSeconds + 1))
    }
}
