internal import CSodium

/// Authenticated encryption with associated data: XChaCha20-Poly1305 (IETF construction, libsodium's
/// `crypto_aead_xchacha20poly1305_ietf_*`), for data at rest that only this service reads back (the email
/// outbox's message bodies).
///
/// The 24-byte nonce is drawn at random for each message, which XChaCha's nonce length makes safe without a
/// counter; the sealed form is `nonce ‖ ciphertext ‖ tag` (plaintext + 40 bytes). Instances are immutable and
/// safe to share between threads.
///
/// ```swift
/// let box = try XChaCha20Poly1305(key: key32)
/// let sealed = try box.seal(Array("hello".utf8), associatedData: Array("row-1".utf8))
/// let opened = box.open(sealed, associatedData: Array("row-1".utf8))  // nil when tampered with or another key
/// ```
public struct XChaCha20Poly1305: Sendable {
    /// The key length in bytes.
    public static let keyByteCount = 32
    /// The nonce length in bytes.
    public static let nonceByteCount = 24
    /// The tag length in bytes.
    public static let tagByteCount = 16

    private let key: [UInt8]

    /// Whether `sodium_init` succeeded; run once, on first use.
    private static let isReady: Bool = sodium_init() >= 0

    /// Creates a cipher keyed with `key`.
    /// - Throws: `CryptographyError.weakKey` when the key is not 32 bytes; `.cryptoFailure` when libsodium cannot
    ///   be initialised.
    public init(key: [UInt8]) throws(CryptographyError) {
        guard key.count == Self.keyByteCount else { throw .weakKey }
        guard Self.isReady else { throw .cryptoFailure }
        self.key = key
    }

    /// Encrypts and authenticates `plaintext`, and authenticates `associatedData` (not stored in the output).
    /// - Returns: `nonce ‖ ciphertext ‖ tag`.
    /// - Throws: `CryptographyError.cryptoFailure` when the random generator or libsodium fails.
    public func seal(_ plaintext: [UInt8], associatedData: [UInt8] = []) throws(CryptographyError) -> [UInt8] {
        let nonce = try SecureRandom.bytes(count: Self.nonceByteCount)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + Self.tagByteCount)
        var written: UInt64 = 0
        let status = unsafe ciphertext.withUnsafeMutableBufferPointer { output -> Int32 in
            guard let start = output.baseAddress else { return -1 }
            return unsafe plaintext.withUnsafeBufferPointer { message in
                unsafe associatedData.withUnsafeBufferPointer { data in
                    unsafe crypto_aead_xchacha20poly1305_ietf_encrypt(
                        start, &written, message.baseAddress, UInt64(message.count), data.baseAddress,
                        UInt64(data.count), nil, nonce, key)
                }
            }
        }
        guard status == 0, written == UInt64(ciphertext.count) else { throw .cryptoFailure }
        return nonce + ciphertext
    }

    /// Checks and decrypts the output of ``seal(_:associatedData:)``.
    /// - Returns: the plaintext, or nil when `sealed` is too short, was altered, was sealed with another key, or
    ///   `associatedData` differs.
    public func open(_ sealed: [UInt8], associatedData: [UInt8] = []) -> [UInt8]? {
        guard sealed.count >= Self.nonceByteCount + Self.tagByteCount else { return nil }
        let nonce = Array(sealed[0..<Self.nonceByteCount])
        let ciphertext = Array(sealed[Self.nonceByteCount...])
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count - Self.tagByteCount)
        var written: UInt64 = 0
        let status = unsafe plaintext.withUnsafeMutableBufferPointer { output -> Int32 in
            unsafe ciphertext.withUnsafeBufferPointer { input -> Int32 in
                guard let start = input.baseAddress else { return -1 }
                return
                    unsafe associatedData.withUnsafeBufferPointer { data in
                        unsafe crypto_aead_xchacha20poly1305_ietf_decrypt(
                            output.baseAddress, &written, nil, start, UInt64(input.count), data.baseAddress,
                            UInt64(data.count), nonce, key)
                    }
            }
        }
        guard status == 0, written == UInt64(plaintext.count) else { return nil }
        return plaintext
    }
}
