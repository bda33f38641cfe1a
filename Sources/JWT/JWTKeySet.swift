import StrictJSON

/// An immutable set of HMAC keys addressed by `kid`, one of which signs.
///
/// Safe to share between threads. Each key fixes its algorithm; a token naming another `alg`, or a `kid` not in the
/// set, is rejected — there is never a fallback key and never `none`.
///
/// ```swift
/// let keys = try JWTKeySet(keys: [HMACKey(kid: "k1", algorithm: .hs512, secret: secret)], signingKID: "k1")
/// let signer = keys.signer(header: .standard(type: "at+jwt"))
/// let token = try signer.sign(["sub": "u1", "exp": .integer(expiry)])
/// let claims = try keys.verify(token, options: VerificationOptions(issuer: "tokenvend", type: "at+jwt"))
/// ```
public struct JWTKeySet: Sendable {
    /// The key `sign` and `signer(header:)` use.
    public let signingKey: HMACKey
    private let keysByID: [String: HMACKey]
    /// Parsed headers of tokens that verified, keyed by their exact segment.
    let headerCache = HeaderCache()

    /// Creates a key set.
    ///
    /// - Parameters:
    ///   - keys: Keys with distinct, non-empty `kid`s.
    ///   - signingKID: The `kid` of the key that signs; must be one of `keys`.
    /// - Throws: `JWTError.invalidKeyID` for duplicate `kid`s, `.unknownSigningKeyID` when `signingKID` is absent.
    public init(keys: [HMACKey], signingKID: String) throws(JWTError) {
        var keysByID: [String: HMACKey] = [:]
        for key in keys {
            guard keysByID.updateValue(key, forKey: key.kid) == nil else { throw .invalidKeyID }
        }
        guard let signingKey = keysByID[signingKID] else { throw .unknownSigningKeyID }
        self.signingKey = signingKey
        self.keysByID = keysByID
    }

    /// All keys, in no particular order.
    public var keys: [HMACKey] { Array(keysByID.values) }

    /// The key with this `kid`, if any.
    public func key(for kid: String) -> HMACKey? {
        keysByID[kid]
    }

    /// A signer for the signing key with the header precomputed; create it once and reuse it on hot paths.
    public func signer(header: JWTHeader = .standard()) -> JWTSigner {
        JWTSigner(key: signingKey, header: header)
    }

    /// Signs `claims` with the signing key. Serializes the header on each call; prefer `signer(header:)` when hot.
    ///
    /// - Throws: `JWTError.cryptoFailure` when OpenSSL fails.
    public func sign(_ claims: JWTClaims, header: JWTHeader = .standard()) throws(JWTError) -> String {
        try signer(header: header).sign(claims)
    }

    /// Picks the key for a parsed header; enforces `kid` presence/membership and the exact `alg`.
    func key(forHeader header: JSONObject, requireKeyID: Bool) throws(JWTError) -> HMACKey {
        let key: HMACKey
        switch header["kid"] {
        case .string(let kid):
            guard let found = keysByID[kid] else { throw .unknownKeyID }
            key = found
        case nil:
            guard !requireKeyID, keysByID.count == 1, let only = keysByID.values.first else { throw .missingKeyID }
            key = only
        default:
            throw .invalidClaim("kid")
        }
        // Exact, case-sensitive match (RFC 7515 §4.1.1); "none", "hs512" or a missing alg all fail here.
        guard case .string(let alg) = header["alg"], alg == key.algorithm.name else { throw .algorithmMismatch }
        return key
    }
}
