/// Loading keys from PEM, DER and raw (JWK) components.
extension AsymmetricKey {
    /// Loads a key from PEM: PKCS#8 `PRIVATE KEY`, SEC1 `EC PRIVATE KEY`, or SPKI `PUBLIC KEY`.
    ///
    /// The key must match `algorithm` (P-256 for ECDSA, Ed25519, or RSA ≥ 2048 bits as a public key only); EC
    /// public points are fully checked, and the public half of a private key must belong to it. An `EC
    /// PARAMETERS` block before the key is skipped; encrypted keys and any other block are refused. At most 64 KiB.
    /// - Throws: `CryptographyError.invalidKey` with `.malformedPEM`, `.unsupportedPEM`, `.wrongKeyType`,
    ///   `.invalidPublicKey`, `.mismatchedPublicKey` or `.weakRSAKey`; `.cryptoFailure`.
    public init(pem: String, algorithm: Algorithm) throws(CryptographyError) {
        var bytes = Array(pem.utf8)
        defer { SecureMemory.cleanse(&bytes) }
        let (key, isPrivate) = try PKey.decode(pem: bytes)
        try Self.check(key, algorithm: algorithm, isPrivate: isPrivate)
        try self.init(key: key, algorithm: algorithm, isPrivate: isPrivate)
    }

    /// Loads a public key from its DER SubjectPublicKeyInfo (RFC 5280), with the same checks as `init(pem:)`.
    public init(subjectPublicKeyInfo der: [UInt8], algorithm: Algorithm) throws(CryptographyError) {
        let key = try PKey.decode(subjectPublicKeyInfo: der)
        try Self.check(key, algorithm: algorithm, isPrivate: false)
        try self.init(key: key, algorithm: algorithm, isPrivate: false)
    }

    /// A P-256 key from its affine coordinates `x`, `y` and, for a private key, the scalar `d` (JWK `x`, `y`, `d`:
    /// 32 bytes each, big-endian).
    ///
    /// - Throws: `CryptographyError.invalidKey(.wrongComponentLength)`, `.invalidKey(.invalidPublicKey)` for a point
    ///   not on the curve, `.invalidKey(.mismatchedPublicKey)` when `d` does not give (x, y).
    public init(p256X x: [UInt8], y: [UInt8], d: [UInt8]? = nil) throws(CryptographyError) {
        try self.init(key: try PKey.p256(x: x, y: y, d: d), algorithm: .ecdsaP256SHA256, isPrivate: d != nil)
    }

    /// An Ed25519 key from its public key `x` and, for a private key, its 32-byte seed `d` (RFC 8037 §2).
    ///
    /// With both, `x` must be the public key of `d`. Either may be omitted, not both.
    /// - Throws: `CryptographyError.invalidKey(.wrongComponentLength)` or `.invalidKey(.mismatchedPublicKey)`.
    public init(ed25519X x: [UInt8]?, d: [UInt8]? = nil) throws(CryptographyError) {
        try self.init(key: try PKey.ed25519(x: x, d: d), algorithm: .ed25519, isPrivate: d != nil)
    }

    /// An RSA public key from its modulus `n` and public exponent `e` (big-endian, RFC 7518 §6.3.1).
    ///
    /// - Throws: `CryptographyError.invalidKey(.weakRSAKey)` for a modulus under 2048 bits or an exponent OpenSSL's
    ///   public-key check refuses (even, below 65537).
    public init(rsaModulus n: [UInt8], exponent e: [UInt8]) throws(CryptographyError) {
        let key = try PKey.rsa(modulus: n, exponent: e)
        try Self.check(key, algorithm: .rsaPKCS1SHA256, isPrivate: false)
        try self.init(key: key, algorithm: .rsaPKCS1SHA256, isPrivate: false)
    }

    /// Refuses a decoded key that does not fit `algorithm`.
    private static func check(_ key: PKey, algorithm: Algorithm, isPrivate: Bool) throws(CryptographyError) {
        switch algorithm {
        case .ecdsaP256SHA256:
            // OpenSSL names the group only for P-256 itself: explicit parameters that are not exactly P-256's have no
            // group name (or another one) and are refused here.
            guard key.isA("EC"), key.utf8Parameter("group") == "prime256v1" else { throw .invalidKey(.wrongKeyType) }
            guard key.check(isPrivate: isPrivate) else {
                throw .invalidKey(isPrivate ? .mismatchedPublicKey : .invalidPublicKey)
            }
        case .ed25519:
            guard key.isA("ED25519") else { throw .invalidKey(.wrongKeyType) }
        case .rsaPKCS1SHA256:
            guard key.isA("RSA") else { throw .invalidKey(.wrongKeyType) }
            guard !isPrivate else { throw .invalidKey(.unsupportedPEM) }
            guard key.bits >= minimumRSABits, key.check(isPrivate: false) else { throw .invalidKey(.weakRSAKey) }
        }
    }
}
