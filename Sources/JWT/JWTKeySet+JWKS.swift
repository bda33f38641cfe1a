import Cryptography
import StrictJSON

/// Building a verify-only key set from a third-party JWK Set (an identity provider's `jwks_uri`, a file), leniently
/// as RFC 7517 §5 asks: keys that cannot verify here are skipped and reported, never fatal on their own.
extension JWTKeySet {
    /// The verify-only key set of the usable keys of a JWK Set document, and the keys left out.
    ///
    /// The document itself must be one JSON object of at most 64 KiB with a `keys` array of at most 100 entries.
    /// Each entry is then kept or skipped on its own: skipped are entries that are not objects or not valid JWKs
    /// (`JWK.validate()`; an unknown `kty`, a `k` member…), keys with `use` other than `sig`, `key_ops` without
    /// `verify`, an `alg` or curve this library does not verify (ES384, PS256, RSA-OAEP, P-384, X25519…), RSA
    /// under 2048 bits, points not on the curve. An RSA `n` written with leading zero octets (RFC 7518 §6.3.1.1
    /// forbids them, some providers publish them) is accepted with the zeros stripped. Private members of a key
    /// are ignored (only its public part verifies). A key without `kid` is used only when it is the only usable
    /// key (its RFC 7638 thumbprint then serves as its `kid`, and a token without `kid` picks it); a repeated
    /// `kid` keeps the first usable key.
    ///
    /// - Returns: the set (`signingKey` is `nil`) and the skipped keys, in document order.
    /// - Throws: `JWTError.invalidKey` when the document is not such an object, or when no usable key remains.
    public static func verifying(jwks json: [UInt8]) throws(JWTError) -> (keys: JWTKeySet, skipped: [SkippedJWK]) {
        let values = try JWKSet.entries(of: json)
        var candidates: [Candidate] = []
        var skipped: [SkippedJWK] = []
        for (index, value) in values.enumerated() {
            guard case .object(let member) = value else {
                skipped.append(SkippedJWK(index: index, kid: nil, reason: "not a JSON object"))
                continue
            }
            let kid = member["kid"]?.stringValue
            do {
                var jwk = try JWK(members: member)
                jwk.stripLeadingZerosOfModulus()
                try jwk.validate()
                candidates.append(try Candidate(index: index, jwk: jwk))
            } catch {
                skipped.append(SkippedJWK(index: index, kid: kid, reason: Self.reason(error)))
            }
        }
        return try assemble(candidates, skipped: skipped)
    }

    /// The verify-only key set of the usable keys of `set`, and the keys left out (indices into `set.keys`); the
    /// same rules as `verifying(jwks:)` except that `set` was parsed strictly already.
    ///
    /// - Throws: `JWTError.invalidKey` when no usable key remains.
    public static func verifying(_ set: JWKSet) throws(JWTError) -> (keys: JWTKeySet, skipped: [SkippedJWK]) {
        var candidates: [Candidate] = []
        var skipped: [SkippedJWK] = []
        for (index, jwk) in set.keys.enumerated() {
            do {
                try jwk.validate()
                candidates.append(try Candidate(index: index, jwk: jwk))
            } catch {
                skipped.append(SkippedJWK(index: index, kid: jwk.kid, reason: Self.reason(error)))
            }
        }
        return try assemble(candidates, skipped: skipped)
    }

    /// A key that can verify here, before the `kid` rules of the whole set are applied.
    private struct Candidate {
        let index: Int
        /// The JWK's own `kid`, if any.
        let ownKID: String?
        let key: JWTKey

        init(index: Int, jwk: JWK) throws(JWTError) {
            if let use = jwk.use, use != "sig" { throw .invalidKey("use is not sig") }
            if let keyOps = jwk.keyOps, !keyOps.contains("verify") { throw .invalidKey("key_ops excludes verify") }
            if let alg = jwk.alg {
                guard let algorithm = JWTAlgorithm(name: alg), !algorithm.isSymmetric else {
                    // Only names from the registry reach the message (validate() refused any other).
                    throw .invalidKey("alg \(alg) is not supported")
                }
            }
            switch (jwk.kty, jwk.crv) {
            case ("EC", "P-256"), ("OKP", "Ed25519"), ("RSA", nil): break
            // validate() accepted the curve, so it is one of the registered names.
            case (_, let crv?): throw .invalidKey("curve \(crv) is not supported")
            default: throw .invalidKey("key type not supported")
            }
            let publicPart = jwk.publicOnly()
            let kid: String
            if let own = jwk.kid { kid = own } else { kid = try publicPart.thumbprint() }
            self.index = index
            self.ownKID = jwk.kid
            self.key = try JWTKey(jwk: publicPart, kid: kid)
        }
    }

    /// Applies the `kid` rules and builds the set.
    private static func assemble(
        _ candidates: [Candidate], skipped: [SkippedJWK]
    ) throws(JWTError) -> (keys: JWTKeySet, skipped: [SkippedJWK]) {
        var skipped = skipped
        var keys: [JWTKey] = []
        var seen: Set<String> = []
        for candidate in candidates {
            if candidate.ownKID == nil, candidates.count > 1 {
                skipped.append(
                    SkippedJWK(index: candidate.index, kid: nil, reason: "no kid, and the set has other usable keys"))
            } else if !seen.insert(candidate.key.kid).inserted {
                skipped.append(SkippedJWK(index: candidate.index, kid: candidate.ownKID, reason: "repeated kid"))
            } else {
                keys.append(candidate.key)
            }
        }
        skipped.sort { $0.index < $1.index }
        guard !keys.isEmpty else { throw .invalidKey("JWK Set has no usable verification key") }
        return (try JWTKeySet(keys: keys, signingKID: nil), skipped)
    }

    /// The reason of a refused key: the library's own text.
    private static func reason(_ error: JWTError) -> String {
        switch error {
        case .invalidKey(let reason): reason
        case .unsupportedAlgorithm: "key type, curve or alg not supported"
        default: error.description
        }
    }
}

extension JWK {
    /// Drops leading zero octets of an RSA `n` that some providers write (RFC 7518 §6.3.1.1 asks for none).
    mutating func stripLeadingZerosOfModulus() {
        guard kty == "RSA", let n, let bytes = Base64URL.decode(n), bytes.first == 0 else { return }
        let stripped = Array(bytes.drop { $0 == 0 })
        guard !stripped.isEmpty else { return }
        self.n = Base64URL.encode(stripped)
    }
}
