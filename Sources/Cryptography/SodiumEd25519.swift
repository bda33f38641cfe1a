internal import CSodium

/// Ed25519 signing and verification through libsodium, which measured about 2.2× faster than OpenSSL 3.0's
/// Ed25519 here (`make bench`: sign 21 µs vs 48 µs, verify 59 µs vs 129 µs). Keys are still loaded, checked and
/// exported through OpenSSL (`PKey`); this holds the same key in libsodium's form.
///
/// libsodium's verification (1.0.18) follows RFC 8032 with the stricter checks it documents: S must be canonical
/// (below L), and small-order public keys and R values are refused; Wycheproof's Ed25519 vectors all agree.
///
/// `@unchecked Sendable`: `secretKey` is written only in `init` and in `deinit` (wiped), and read-only in between;
/// libsodium's signing functions do not modify the key.
@safe final class SodiumEd25519: @unchecked Sendable {
    /// `seed ‖ public key` (64 bytes), or empty for a public key.
    private var secretKey: [UInt8]
    private let publicKey: [UInt8]

    /// Whether `sodium_init` succeeded; run once, on first use.
    private static let isReady: Bool = sodium_init() >= 0

    /// A key from the 32-byte public key and, for a private key, the 32-byte seed; the derived public key must be
    /// `publicKey`.
    init(publicKey: [UInt8], seed: [UInt8]?) throws(CryptographyError) {
        guard Self.isReady, publicKey.count == 32 else { throw .cryptoFailure }
        self.publicKey = publicKey
        self.secretKey = []
        guard let seed else { return }
        guard seed.count == 32 else { throw .invalidKey(.wrongComponentLength) }
        var derived = [UInt8](repeating: 0, count: 32)
        var secretKey = [UInt8](repeating: 0, count: 64)
        let status = unsafe crypto_sign_seed_keypair(&derived, &secretKey, seed)
        guard status == 0, derived == publicKey else {
            SecureMemory.cleanse(&secretKey)
            throw status == 0 ? .invalidKey(.mismatchedPublicKey) : .cryptoFailure
        }
        self.secretKey = secretKey
    }

    deinit {
        SecureMemory.cleanse(&secretKey)
    }

    /// The 64-byte signature of `bytes[range]` (RFC 8032 §5.1.6).
    func sign(_ bytes: [UInt8], range: Range<Int>) throws(CryptographyError) -> [UInt8] {
        guard secretKey.count == 64 else { throw .invalidKey(.notPrivate) }
        var signature = [UInt8](repeating: 0, count: 64)
        let status = unsafe bytes.withUnsafeBufferPointer { message in
            let start = unsafe message.baseAddress.map { unsafe $0 + range.lowerBound }
            return unsafe crypto_sign_detached(&signature, nil, start, UInt64(range.count), secretKey)
        }
        guard status == 0 else { throw .cryptoFailure }
        return signature
    }

    /// Whether `signature` (64 bytes) is valid for `bytes[range]` (RFC 8032 §5.1.7).
    func verify(_ signature: [UInt8], for bytes: [UInt8], range: Range<Int>) -> Bool {
        guard signature.count == 64 else { return false }
        return unsafe bytes.withUnsafeBufferPointer { message in
            let start = unsafe message.baseAddress.map { unsafe $0 + range.lowerBound }
            return unsafe crypto_sign_verify_detached(signature, start, UInt64(range.count), publicKey) == 0
        }
    }
}
