/// The key's components, for JWK (RFC 7518 §6, RFC 8037 §2) and PEM output.
extension AsymmetricKey {
    /// The public components, each big-endian.
    public enum PublicComponents: Sendable, Hashable {
        /// P-256 affine coordinates, 32 bytes each.
        case p256(x: [UInt8], y: [UInt8])
        /// The 32-byte Ed25519 public key.
        case ed25519(x: [UInt8])
        /// RSA modulus and public exponent, without leading zero bytes.
        case rsa(n: [UInt8], e: [UInt8])
    }

    /// The public components of this key.
    /// - Throws: `CryptographyError.cryptoFailure` when OpenSSL fails.
    public func publicComponents() throws(CryptographyError) -> PublicComponents {
        switch algorithm {
        case .ecdsaP256SHA256:
            return .p256(x: try key.bigNumberParameter("qx", width: 32), y: try key.bigNumberParameter("qy", width: 32))
        case .ed25519:
            return .ed25519(x: try key.rawPublicKey())
        case .rsaPKCS1SHA256:
            return .rsa(n: try key.bigNumberParameter("n"), e: try key.bigNumberParameter("e"))
        }
    }

    /// The private scalar (P-256 `d`, 32 bytes) or seed (Ed25519 `d`, 32 bytes). Wipe it after use.
    ///
    /// - Throws: `CryptographyError.invalidKey(.notPrivate)` for a public key, `.invalidKey(.unsupportedOperation)`
    ///   for RSA, `.cryptoFailure`.
    public func privateScalar() throws(CryptographyError) -> [UInt8] {
        guard isPrivate else { throw .invalidKey(.notPrivate) }
        switch algorithm {
        case .ecdsaP256SHA256: return try key.bigNumberParameter("priv", width: 32)
        case .ed25519: return try key.rawPrivateKey()
        case .rsaPKCS1SHA256: throw .invalidKey(.unsupportedOperation)
        }
    }

    /// The DER SubjectPublicKeyInfo of the public half (RFC 5280 §4.1.2.7).
    /// - Throws: `CryptographyError.cryptoFailure` when OpenSSL fails.
    public func subjectPublicKeyInfo() throws(CryptographyError) -> [UInt8] {
        try key.subjectPublicKeyInfo()
    }

    /// The private key as PKCS#8 `-----BEGIN PRIVATE KEY-----` PEM, unencrypted, for a 0600 key file.
    /// - Throws: `CryptographyError.invalidKey(.notPrivate)` for a public key, `.cryptoFailure`.
    public func privateKeyPEM() throws(CryptographyError) -> String {
        guard isPrivate else { throw .invalidKey(.notPrivate) }
        return try key.pkcs8PEM()
    }

    /// The public key as SPKI `-----BEGIN PUBLIC KEY-----` PEM.
    /// - Throws: `CryptographyError.cryptoFailure` when OpenSSL fails.
    public func publicKeyPEM() throws(CryptographyError) -> String {
        let der = try subjectPublicKeyInfo()
        let base64 = Base64.encode(der)
        var lines = ["-----BEGIN PUBLIC KEY-----"]
        var start = base64.startIndex
        while start < base64.endIndex {
            let end = base64.index(start, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[start..<end]))
            start = end
        }
        lines.append("-----END PUBLIC KEY-----")
        return lines.joined(separator: "\n") + "\n"
    }
}
