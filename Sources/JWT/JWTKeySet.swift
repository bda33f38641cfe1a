import StrictJSON

/// An immutable set of keys addressed by `kid` — HMAC, ES256, EdDSA or RS256 — at most one of which signs.
///
/// Safe to share between threads. Each key fixes its algorithm; a token naming another `alg`, or a `kid` not in the
/// set, is rejected — there is never a fallback key and never `none`. An HMAC key never verifies an ES/EdDSA/RS
/// token and an asymmetric key never verifies an HS token, whatever the header says.
///
/// ```swift
/// let keys = try JWTKeySet(keys: [JWTKey.generate(kid: "k1", algorithm: .es256)], signingKID: "k1")
/// let signer = keys.signer(header: .standard(type: "at+jwt"))
/// let token = try signer.sign(["sub": "u1", "exp": .integer(expiry)])
/// let claims = try keys.verify(token, options: VerificationOptions(issuer: "tokenvend", type: "at+jwt"))
/// ```
public struct JWTKeySet: Sendable {
    /// The key `sign` and `signer(header:)` use; `nil` for a verify-only set.
    public let signingKey: JWTKey?
    /// The keys in the order given.
    public let keys: [JWTKey]
    private let keysByID: [String: JWTKey]
    /// Parsed headers of tokens that verified, keyed by their exact segment.
    let headerCache = HeaderCache()

    /// Creates a key set of keys of any kind.
    ///
    /// - Parameters:
    ///   - keys: Keys with distinct, non-empty `kid`s.
    ///   - signingKID: The `kid` of the key that signs (one of `keys`, able to sign), or `nil` for a verify-only set.
    /// - Throws: `JWTError.invalidKeyID` for duplicate `kid`s, `.unknownSigningKeyID` when `signingKID` is absent,
    ///   `.invalidKey` when the signing key cannot sign (a public key, RS256).
    public init(keys: [JWTKey], signingKID: String?) throws(JWTError) {
        var keysByID: [String: JWTKey] = [:]
        for key in keys {
            guard !key.kid.isEmpty, keysByID.updateValue(key, forKey: key.kid) == nil else { throw .invalidKeyID }
        }
        if let signingKID {
            guard let signingKey = keysByID[signingKID] else { throw .unknownSigningKeyID }
            guard signingKey.canSign else { throw .invalidKey("the signing key has no private part") }
            self.signingKey = signingKey
        } else {
            self.signingKey = nil
        }
        self.keys = keys
        self.keysByID = keysByID
    }

    /// Creates a set of HMAC keys, one of which signs.
    ///
    /// - Throws: `JWTError.invalidKeyID` for duplicate `kid`s, `.unknownSigningKeyID` when `signingKID` is absent.
    public init(keys: [HMACKey], signingKID: String) throws(JWTError) {
        try self.init(keys: keys.map(JWTKey.init), signingKID: signingKID)
    }

    /// The key with this `kid`, if any.
    public func key(for kid: String) -> JWTKey? {
        keysByID[kid]
    }

    /// The public JWKs of the asymmetric keys, in the set's order (HMAC keys are never published).
    public func publicJWKSet() -> JWKSet {
        JWKSet(keys: keys.compactMap { $0.publicJWK() })
    }

    /// A signer for the signing key with the header precomputed; create it once and reuse it on hot paths.
    /// For a verify-only set, its `sign` throws `JWTError.unknownSigningKeyID`.
    public func signer(header: JWTHeader = .standard()) -> JWTSigner {
        guard let signingKey else { return JWTSigner(unavailable: header) }
        return JWTSigner(key: signingKey, header: header)
    }

    /// Signs `claims` with the signing key. Serializes the header on each call; prefer `signer(header:)` when hot.
    ///
    /// - Throws: `JWTError.unknownSigningKeyID` for a verify-only set, `.cryptoFailure` when OpenSSL fails.
    public func sign(_ claims: JWTClaims, header: JWTHeader = .standard()) throws(JWTError) -> String {
        try signer(header: header).sign(claims)
    }

    /// Picks the key for a parsed header; enforces `kid` presence/membership and the exact `alg`.
    func key(forHeader header: JSONObject, requireKeyID: Bool) throws(JWTError) -> JWTKey {
        let key: JWTKey
        switch header["kid"] {
        case .string(let kid):
            guard let found = keysByID[kid] else { throw .unknownKeyID }
            key = found
        case nil:
            guard !requireKeyID, keys.count == 1, let only = keys.first else { throw .missingKeyID }
            key = only
        default:
            throw .invalidClaim("kid")
        }
        // Exact, case-sensitive match (RFC 7515 §4.1.1); "none", "hs512", or HS512 against an ES256 key (the
        // key-confusion attack) all fail here, before any cryptography.
        guard case .string(let alg) = header["alg"], alg == key.algorithm.name else { throw .algorithmMismatch }
        return key
    }
}
