internal import COpenSSL

/// Authenticated encryption: AES-256-GCM (NIST SP 800-38D) on OpenSSL's EVP interface, for secrets at rest that
/// only this service reads back (Sign in with Apple's refresh tokens, `identities.refresh_token`).
///
/// Each message gets a random 12-byte nonce (the size GCM is built for); with a random nonce, one key should seal
/// fewer than 2³² messages (SP 800-38D §8.3), far more than a deployment stores. The sealed form is
/// `nonce ‖ ciphertext ‖ tag` (plaintext + 28 bytes), the tag 16 bytes. Instances are immutable and safe to share
/// between threads; every call has its own `EVP_CIPHER_CTX`.
///
/// ```swift
/// let box = try AES256GCM(key: key32)
/// let sealed = try box.seal(Array("rt-secret".utf8), associatedData: Array("apple".utf8))
/// let opened = try box.open(sealed, associatedData: Array("apple".utf8))  // throws .authenticationFailed if altered
/// ```
public struct AES256GCM: Sendable {
    /// The key length in bytes.
    public static let keyByteCount = 32
    /// The nonce length in bytes.
    public static let nonceByteCount = 12
    /// The tag length in bytes.
    public static let tagByteCount = 16

    private let key: [UInt8]

    /// Creates a cipher keyed with `key`.
    /// - Throws: `CryptographyError.weakKey` when the key is not 32 bytes.
    public init(key: [UInt8]) throws(CryptographyError) {
        guard key.count == Self.keyByteCount else { throw .weakKey }
        self.key = key
    }

    /// Encrypts and authenticates `plaintext` under a fresh random nonce, and authenticates `associatedData`
    /// (not stored in the output).
    /// - Returns: `nonce ‖ ciphertext ‖ tag`.
    /// - Throws: `CryptographyError.cryptoFailure` when the random generator or OpenSSL fails.
    public func seal(_ plaintext: [UInt8], associatedData: [UInt8] = []) throws(CryptographyError) -> [UInt8] {
        try seal(plaintext, nonce: SecureRandom.bytes(count: Self.nonceByteCount), associatedData: associatedData)
    }

    /// ``seal(_:associatedData:)`` with a given nonce: for known-answer tests only (a repeated nonce under one key
    /// breaks GCM), so not public.
    /// - Throws: `CryptographyError.cryptoFailure` when the nonce is not 12 bytes or OpenSSL fails.
    package func seal(
        _ plaintext: [UInt8], nonce: [UInt8], associatedData: [UInt8] = []
    ) throws(CryptographyError) -> [UInt8] {
        guard nonce.count == Self.nonceByteCount else { throw .cryptoFailure }
        let context = try CipherContext()
        var output = [UInt8](repeating: 0, count: plaintext.count + Self.tagByteCount)
        let sealed = unsafe output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let out = buffer.baseAddress else { return false }
            var length: Int32 = 0
            guard unsafe EVP_EncryptInit_ex(context.pointer, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                unsafe EVP_CIPHER_CTX_ctrl(
                    context.pointer, EVP_CTRL_GCM_SET_IVLEN, Int32(Self.nonceByteCount), nil) == 1,
                unsafe EVP_EncryptInit_ex(context.pointer, nil, nil, key, nonce) == 1
            else { return false }
            if !associatedData.isEmpty {
                guard
                    unsafe EVP_EncryptUpdate(
                        context.pointer, nil, &length, associatedData, Int32(associatedData.count)) == 1
                else { return false }
            }
            var written = 0
            if !plaintext.isEmpty {
                guard unsafe EVP_EncryptUpdate(context.pointer, out, &length, plaintext, Int32(plaintext.count)) == 1
                else { return false }
                written = Int(length)
            }
            guard unsafe EVP_EncryptFinal_ex(context.pointer, out + written, &length) == 1 else { return false }
            written += Int(length)
            guard written == plaintext.count else { return false }
            return unsafe EVP_CIPHER_CTX_ctrl(
                context.pointer, EVP_CTRL_GCM_GET_TAG, Int32(Self.tagByteCount), out + written) == 1
        }
        guard sealed else { throw .cryptoFailure }
        return nonce + output
    }

    /// Checks the tag and decrypts the output of ``seal(_:associatedData:)``.
    /// - Returns: the plaintext.
    /// - Throws: `CryptographyError.authenticationFailed` when `sealed` is shorter than a nonce and a tag, was
    ///   altered, was sealed under another key, or `associatedData` differs; `.cryptoFailure` when OpenSSL fails.
    public func open(_ sealed: [UInt8], associatedData: [UInt8] = []) throws(CryptographyError) -> [UInt8] {
        guard sealed.count >= Self.nonceByteCount + Self.tagByteCount else { throw .authenticationFailed }
        return try open(
            ciphertext: Array(sealed[Self.nonceByteCount..<(sealed.count - Self.tagByteCount)]),
            nonce: Array(sealed[0..<Self.nonceByteCount]),
            tag: Array(sealed[(sealed.count - Self.tagByteCount)...]),
            associatedData: associatedData)
    }

    /// Checks the tag and decrypts a message whose parts travel apart, as in a JWE (`A256GCM`, RFC 7518 §5.3:
    /// the initialization vector, the ciphertext and the authentication tag are separate segments).
    /// - Returns: the plaintext.
    /// - Throws: `CryptographyError.authenticationFailed` when `nonce` is not 12 bytes, `tag` not 16, or the
    ///   message was altered, sealed under another key, or `associatedData` differs; `.cryptoFailure` when
    ///   OpenSSL fails.
    public func open(
        ciphertext: [UInt8], nonce: [UInt8], tag: [UInt8], associatedData: [UInt8] = []
    ) throws(CryptographyError) -> [UInt8] {
        guard nonce.count == Self.nonceByteCount, tag.count == Self.tagByteCount else { throw .authenticationFailed }
        var tag = tag
        let context = try CipherContext()
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 1)
        var opened = false
        let set = unsafe plaintext.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let out = buffer.baseAddress else { return false }
            var length: Int32 = 0
            guard unsafe EVP_DecryptInit_ex(context.pointer, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                unsafe EVP_CIPHER_CTX_ctrl(
                    context.pointer, EVP_CTRL_GCM_SET_IVLEN, Int32(Self.nonceByteCount), nil) == 1,
                unsafe EVP_DecryptInit_ex(context.pointer, nil, nil, key, nonce) == 1
            else { return false }
            if !associatedData.isEmpty {
                guard
                    unsafe EVP_DecryptUpdate(
                        context.pointer, nil, &length, associatedData, Int32(associatedData.count)) == 1
                else { return false }
            }
            var written = 0
            if !ciphertext.isEmpty {
                guard
                    unsafe EVP_DecryptUpdate(
                        context.pointer, out, &length, ciphertext, Int32(ciphertext.count)) == 1
                else { return false }
                written = Int(length)
            }
            guard
                unsafe tag.withUnsafeMutableBytes({ tagBytes in
                    unsafe EVP_CIPHER_CTX_ctrl(
                        context.pointer, EVP_CTRL_GCM_SET_TAG, Int32(Self.tagByteCount), tagBytes.baseAddress) == 1
                })
            else { return false }
            // The tag is compared here (constant time inside OpenSSL); 0 means it does not match.
            opened = unsafe EVP_DecryptFinal_ex(context.pointer, out + written, &length) == 1
            return true
        }
        guard set else { throw .cryptoFailure }
        guard opened else {
            unsafe plaintext.withUnsafeMutableBytes { unsafe OPENSSL_cleanse($0.baseAddress, $0.count) }
            throw .authenticationFailed
        }
        plaintext.removeLast()
        return plaintext
    }
}

/// One `EVP_CIPHER_CTX`, freed when released; used by one call on one thread.
@safe private final class CipherContext {
    let pointer: OpaquePointer

    init() throws(CryptographyError) {
        guard let pointer = unsafe EVP_CIPHER_CTX_new() else { throw .cryptoFailure }
        unsafe self.pointer = pointer
    }

    deinit {
        unsafe EVP_CIPHER_CTX_free(pointer)
    }
}
