import Cryptography
public import JWT
import StrictJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

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
    /// Header segment → checked key; shared by copies of this verifier (same `algorithms`).
    let keys = DPoPKeyCache()

    /// - Precondition: `algorithms` holds no HMAC algorithm.
    public init(algorithms: [JWTAlgorithm], maxAgeSeconds: Int64, futureSkewSeconds: Int64 = 5) {
        precondition(algorithms.allSatisfy { !$0.isSymmetric }, "DPoP proofs are never HMAC-signed")
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
    /// - Throws: the first failed check, in this order: `.tooLarge`; `.malformed` (not three canonical base64url
    ///   segments of JSON objects, a `crit` header); `.type`; `.algorithm`; `.key` (no `jwk` object, or not a valid
    ///   public key of the `alg`: P-256 point on the curve, Ed25519 32 bytes, RSA ≥ 2048 bits); `.privateKey`
    ///   (checked before `.key`'s validity checks); `.signature`; `.claims` (`jti` a string of 1…256 Unicode
    ///   scalars, `htm`, `htu` strings, `iat` a number: one with a fraction is taken rounded down), `.malformed`
    ///   for a `nonce` that is not a string; `.method`; `.uri`; `.stale`; `.future`; `.accessTokenHash` (also for
    ///   an `ath` that is not a string).
    public func verify(
        _ proof: String, method: String, targetURI: String, accessToken: String?, now: Date
    ) throws(DPoPProofFailure) -> DPoPProof {
        // Structure first (size, three canonical base64url segments, JSON objects), then the header (from the
        // cache when its bytes were seen), the signature, and only then the claims.
        guard proof.utf8.count <= Self.maximumByteCount else { throw .tooLarge }
        let bytes = UTF8Bytes.array(proof)
        let (first, second, dots) = UTF8Bytes.dots(bytes)
        guard dots == 2, first > 0, second > first + 1, second < bytes.count - 1 else { throw .malformed }
        let segment = Array(bytes[0..<first])
        let cached = keys.entry(for: segment)
        var header: JSONObject?
        if cached == nil { header = try Self.object(bytes, 0..<first) }
        let payload = try Self.object(bytes, (first + 1)..<second)
        guard let signature = Base64URL.decode(bytes, range: (second + 1)..<bytes.count) else { throw .malformed }

        let entry: DPoPKeyCache.Entry
        if let cached { entry = cached } else if let header { entry = try checkedKey(header) } else { throw .malformed }
        let valid: Bool
        do {
            valid = try entry.key.isValidSignature(signature, for: bytes, range: 0..<second)
        } catch {
            throw .signature
        }
        guard valid else { throw .signature }
        if cached == nil { keys.insert(entry, for: segment) }

        let claims = try DPoPProofClaims(payload)
        guard UTF8Bytes.equal(claims.method, method) else { throw .method }
        try Self.checkURI(claims.uri, targetURI: targetURI)
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        guard claims.issuedAt >= seconds - maxAgeSeconds else { throw .stale }
        guard claims.issuedAt <= seconds + futureSkewSeconds else { throw .future }
        try Self.checkAccessTokenHash(claims.accessTokenHash, accessToken: accessToken)
        return DPoPProof(
            thumbprint: entry.thumbprint, identifier: claims.identifier, issuedAt: claims.issuedAt,
            nonce: claims.nonce, algorithm: entry.algorithm)
    }

    /// Until when a proof issued at `issuedAt` could still be accepted (its `jti` must be remembered that long).
    public func acceptedUntil(issuedAt: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(issuedAt + maxAgeSeconds + futureSkewSeconds + 1))
    }
}
