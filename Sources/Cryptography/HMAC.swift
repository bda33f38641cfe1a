/// A keyed HMAC (RFC 2104) on OpenSSL: SHA-256, SHA-384 or SHA-512.
///
/// The key is absorbed once at creation (the inner and outer padded blocks are precomputed), so each
/// `authenticationCode(for:)` costs only the hash of the message. Instances are immutable and safe to share
/// between threads; concurrent calls use separate pooled contexts.
///
/// ```swift
/// let mac = try HMAC(algorithm: .sha256, key: secret)
/// let tag = try mac.authenticationCode(for: Array("session-1:7".utf8))
/// ```
public struct HMAC: Sendable {
    /// The hash function under the HMAC.
    public enum Algorithm: Sendable, Hashable, CaseIterable {
        /// SHA-256: 32-byte output, 64-byte block.
        case sha256
        /// SHA-384: 48-byte output, 128-byte block.
        case sha384
        /// SHA-512: 64-byte output, 128-byte block.
        case sha512

        /// The length of an authentication code in bytes, and the minimum key length.
        public var outputByteCount: Int {
            switch self {
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }

        var blockByteCount: Int { self == .sha256 ? 64 : 128 }
    }

    /// The hash function this HMAC uses.
    public let algorithm: Algorithm
    private let engine: HMACEngine

    /// Creates a keyed HMAC.
    ///
    /// - Parameters:
    ///   - algorithm: The hash function.
    ///   - key: The secret. Keys longer than the hash block are hashed first (RFC 2104 §2).
    ///   - allowShortKey: Accept keys shorter than the hash output (for published test vectors and interop
    ///     only). Default: `false`.
    /// - Throws: `CryptographyError.weakKey` when the key is empty, or shorter than `algorithm.outputByteCount` and
    ///   `allowShortKey` is false; `CryptographyError.cryptoFailure` when OpenSSL fails.
    public init(algorithm: Algorithm, key: [UInt8], allowShortKey: Bool = false) throws(CryptographyError) {
        guard !key.isEmpty, allowShortKey || key.count >= algorithm.outputByteCount else { throw .weakKey }
        self.algorithm = algorithm
        self.engine = try HMACEngine(algorithm: algorithm, key: key)
    }

    /// Computes the authentication code of `message`.
    ///
    /// - Returns: `algorithm.outputByteCount` bytes.
    /// - Throws: `CryptographyError.cryptoFailure` when OpenSSL fails (allocation failure).
    public func authenticationCode(for message: [UInt8]) throws(CryptographyError) -> [UInt8] {
        try engine.authenticationCode(for: message, range: message.startIndex..<message.endIndex)
    }

    /// Checks `code` against the authentication code of `message` in constant time (`CRYPTO_memcmp`).
    ///
    /// - Returns: `true` only when `code` has the full length and every byte matches.
    /// - Throws: `CryptographyError.cryptoFailure` when OpenSSL fails.
    public func isValidAuthenticationCode(_ code: [UInt8], for message: [UInt8]) throws(CryptographyError) -> Bool {
        let expected = try authenticationCode(for: message)
        return ConstantTime.equals(expected, code)
    }

    /// The code of `bytes[range]`, without copying the range out.
    package func authenticationCode(for bytes: [UInt8], range: Range<Int>) throws(CryptographyError) -> [UInt8] {
        try engine.authenticationCode(for: bytes, range: range)
    }
}
