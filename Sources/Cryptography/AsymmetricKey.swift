/// A public or private asymmetric key bound to one signature algorithm, on OpenSSL 3 (EVP).
///
/// - ECDSA P-256 with SHA-256: signatures are exactly the 64-byte `R ‖ S` (RFC 7518 §3.4, IEEE P1363), never DER;
///   any other length, and R or S equal to zero or not below the group order n, is refused. A high S (n/2 < S < n)
///   verifies, as ECDSA (FIPS 186-4), RFC 7518 and Wycheproof's test vectors all accept it: a verifier cannot
///   require the low-S form that OpenSSL does not produce. Public points are checked when the key is loaded.
/// - Ed25519 (RFC 8032): 64-byte signatures, deterministic; signed and verified with libsodium, which measured
///   about 2.2× faster than OpenSSL's Ed25519 here (keys are still loaded and checked through OpenSSL).
/// - RSA PKCS #1 v1.5 with SHA-256: verification only, modulus of at least 2048 bits.
///
/// Instances are immutable and safe to share between threads; concurrent calls use separate pooled OpenSSL
/// contexts. `description` never shows key material.
///
/// ```swift
/// let key = try AsymmetricKey.generate(.ecdsaP256SHA256)
/// let signature = try key.signature(for: message)          // 64 bytes
/// let valid = try key.publicKey.isValidSignature(signature, for: message)
/// ```
public struct AsymmetricKey: Sendable {
    /// The signature algorithm a key is bound to.
    public enum Algorithm: Sendable, Hashable, CaseIterable {
        /// ECDSA on P-256 (secp256r1) with SHA-256; `R ‖ S` signatures of 64 bytes.
        case ecdsaP256SHA256
        /// Ed25519 (pure EdDSA, RFC 8032); 64-byte signatures.
        case ed25519
        /// RSASSA-PKCS1-v1_5 with SHA-256; verification only, modulus ≥ 2048 bits.
        case rsaPKCS1SHA256

        /// The length of a signature in bytes, when fixed (`nil` for RSA, where it is the modulus length).
        public var signatureByteCount: Int? {
            switch self {
            case .ecdsaP256SHA256, .ed25519: 64
            case .rsaPKCS1SHA256: nil
            }
        }
    }

    /// The smallest RSA modulus accepted, in bits.
    public static let minimumRSABits = 2048

    /// The algorithm this key signs or verifies with.
    public let algorithm: Algorithm
    /// Whether the key holds private material and can sign.
    public let isPrivate: Bool
    /// The OpenSSL key: loaded, checked and exported through OpenSSL for every algorithm.
    let key: PKey
    /// What signs and verifies: pooled OpenSSL contexts for ECDSA and RSA, libsodium for Ed25519 (measured about
    /// 2.2× faster than OpenSSL's Ed25519 here; see `SodiumEd25519`).
    let backend: Backend

    /// The signing implementation of a key.
    enum Backend: Sendable {
        case openSSL(SignatureEngine)
        case sodium(SodiumEd25519)
    }

    init(key: PKey, algorithm: Algorithm, isPrivate: Bool) throws(CryptographyError) {
        self.algorithm = algorithm
        self.isPrivate = isPrivate
        self.key = key
        switch algorithm {
        case .ecdsaP256SHA256, .rsaPKCS1SHA256:
            self.backend = .openSSL(SignatureEngine(key: key))
        case .ed25519:
            var seed = isPrivate ? try key.rawPrivateKey() : []
            defer { SecureMemory.cleanse(&seed) }
            self.backend = .sodium(try SodiumEd25519(publicKey: try key.rawPublicKey(), seed: isPrivate ? seed : nil))
        }
    }

    /// A new random P-256 or Ed25519 private key.
    ///
    /// - Throws: `CryptographyError.invalidKey(.unsupportedOperation)` for RSA, `.cryptoFailure` when OpenSSL fails.
    public static func generate(_ algorithm: Algorithm) throws(CryptographyError) -> AsymmetricKey {
        switch algorithm {
        case .ecdsaP256SHA256:
            try AsymmetricKey(key: try PKey.generate(type: "EC"), algorithm: algorithm, isPrivate: true)
        case .ed25519:
            try AsymmetricKey(key: try PKey.generate(type: "ED25519"), algorithm: algorithm, isPrivate: true)
        case .rsaPKCS1SHA256: throw .invalidKey(.unsupportedOperation)
        }
    }

    /// The public half of this key (the key itself when it is already public).
    public var publicKey: AsymmetricKey {
        get throws(CryptographyError) {
            guard isPrivate else { return self }
            let spki = try key.subjectPublicKeyInfo()
            return try AsymmetricKey(subjectPublicKeyInfo: spki, algorithm: algorithm)
        }
    }

    /// Signs `message`.
    ///
    /// - Returns: 64 bytes `R ‖ S` for ECDSA (a fresh random nonce each time), 64 bytes for Ed25519.
    /// - Throws: `CryptographyError.invalidKey(.notPrivate)` for a public key, `.invalidKey(.unsupportedOperation)`
    ///   for RSA, `.cryptoFailure` when OpenSSL fails.
    public func signature(for message: [UInt8]) throws(CryptographyError) -> [UInt8] {
        try signature(for: message, range: message.startIndex..<message.endIndex)
    }

    /// Whether `signature` is a valid signature of `message` under this key (or its public half).
    ///
    /// A signature of the wrong length, or (ECDSA) with R or S outside [1, n − 1], is simply invalid.
    /// - Throws: `CryptographyError.cryptoFailure` when OpenSSL fails (allocation), never for a bad signature.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) throws(CryptographyError) -> Bool {
        try isValidSignature(signature, for: message, range: message.startIndex..<message.endIndex)
    }

    /// The signature of `bytes[range]`, without copying the range out.
    package func signature(for bytes: [UInt8], range: Range<Int>) throws(CryptographyError) -> [UInt8] {
        precondition(range.lowerBound >= bytes.startIndex && range.upperBound <= bytes.endIndex)
        guard isPrivate else { throw .invalidKey(.notPrivate) }
        switch backend {
        case .sodium(let sodium):
            return try sodium.sign(bytes, range: range)
        case .openSSL(let engine):
            guard algorithm == .ecdsaP256SHA256 else { throw .invalidKey(.unsupportedOperation) }
            let der = try engine.sign(bytes, range: range, maximumLength: ECDSASignature.maximumDERByteCount)
            return try ECDSASignature.raw(fromDER: der)
        }
    }

    /// Whether `signature` is valid for `bytes[range]`, without copying the range out.
    package func isValidSignature(
        _ signature: [UInt8],
        for bytes: [UInt8],
        range: Range<Int>
    ) throws(CryptographyError) -> Bool {
        precondition(range.lowerBound >= bytes.startIndex && range.upperBound <= bytes.endIndex)
        switch backend {
        case .sodium(let sodium):
            return sodium.verify(signature, for: bytes, range: range)
        case .openSSL(let engine) where algorithm == .ecdsaP256SHA256:
            guard let der = try ECDSASignature.der(fromRaw: signature) else { return false }
            return try engine.verify(der, for: bytes, range: range)
        case .openSSL(let engine):
            guard signature.count == (key.bits + 7) / 8 else { return false }
            return try engine.verify(signature, for: bytes, range: range)
        }
    }
}

extension AsymmetricKey: CustomStringConvertible, CustomDebugStringConvertible {
    /// The algorithm and whether the key is private; never key material.
    public var description: String {
        "AsymmetricKey(\(algorithm), \(isPrivate ? "private" : "public"))"
    }

    /// Same as `description`.
    public var debugDescription: String { description }
}
