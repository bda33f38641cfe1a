internal import COpenSSL

/// AES Key Wrap (RFC 3394) with a 256-bit key encryption key, on OpenSSL's EVP interface: JWE's `A256KW`
/// (RFC 7518 §4.4), which wraps the content-encryption key of Play Integrity tokens.
///
/// The wrapped form is 8 bytes longer than the key it wraps; unwrapping checks RFC 3394's integrity value, so a
/// wrapped key that was altered or wrapped under another key is refused.
///
/// ```swift
/// let cek = try AESKeyWrap.unwrap(encryptedKey, key: decryptionKey)  // throws .authenticationFailed if altered
/// ```
public enum AESKeyWrap {
    /// The key-encryption key length in bytes.
    public static let keyByteCount = 32

    /// Unwraps `wrapped` (RFC 3394 §2.2.2) with `key` and checks its integrity value (§2.2.3).
    /// - Returns: the key, `wrapped.count - 8` bytes.
    /// - Throws: `CryptographyError.weakKey` when `key` is not 32 bytes; `.authenticationFailed` when `wrapped` is
    ///   not a multiple of 8 bytes of at least 24, was altered, or was wrapped under another key; `.cryptoFailure`
    ///   when OpenSSL fails.
    public static func unwrap(_ wrapped: [UInt8], key: [UInt8]) throws(CryptographyError) -> [UInt8] {
        guard key.count == keyByteCount else { throw .weakKey }
        guard wrapped.count >= 24, wrapped.count.isMultiple(of: 8), wrapped.count <= 4096 else {
            throw .authenticationFailed
        }
        var output = [UInt8](repeating: 0, count: wrapped.count)
        let length = try run(encrypt: false, input: wrapped, key: key, output: &output)
        guard length == wrapped.count - 8 else {
            unsafe output.withUnsafeMutableBytes { unsafe OPENSSL_cleanse($0.baseAddress, $0.count) }
            throw .authenticationFailed
        }
        return Array(output[0..<length])
    }

    /// Wraps `keyData` (a multiple of 8 bytes, at least 16) with `key` (RFC 3394 §2.2.1).
    /// - Returns: `keyData.count + 8` bytes.
    /// - Throws: `CryptographyError.weakKey` when `key` is not 32 bytes; `.cryptoFailure` for a `keyData` of
    ///   another length or when OpenSSL fails.
    public static func wrap(_ keyData: [UInt8], key: [UInt8]) throws(CryptographyError) -> [UInt8] {
        guard key.count == keyByteCount else { throw .weakKey }
        guard keyData.count >= 16, keyData.count.isMultiple(of: 8), keyData.count <= 4096 else {
            throw .cryptoFailure
        }
        var output = [UInt8](repeating: 0, count: keyData.count + 16)
        let length = try run(encrypt: true, input: keyData, key: key, output: &output)
        guard length == keyData.count + 8 else { throw .cryptoFailure }
        return Array(output[0..<length])
    }

    /// One wrap or unwrap through `EVP_aes_256_wrap`; the number of bytes written, or -1 when the integrity check
    /// of an unwrap failed.
    private static func run(
        encrypt: Bool, input: [UInt8], key: [UInt8], output: inout [UInt8]
    ) throws(CryptographyError) -> Int {
        guard let context = unsafe EVP_CIPHER_CTX_new() else { throw .cryptoFailure }
        defer { unsafe EVP_CIPHER_CTX_free(context) }
        unsafe EVP_CIPHER_CTX_set_flags(context, Int32(EVP_CIPHER_CTX_FLAG_WRAP_ALLOW))
        let initialised =
            encrypt
            ? unsafe EVP_EncryptInit_ex(context, EVP_aes_256_wrap(), nil, key, nil)
            : unsafe EVP_DecryptInit_ex(context, EVP_aes_256_wrap(), nil, key, nil)
        guard initialised == 1 else { throw .cryptoFailure }
        var length: Int32 = 0
        let updated = unsafe output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let out = buffer.baseAddress else { return 0 }
            return encrypt
                ? unsafe EVP_EncryptUpdate(context, out, &length, input, Int32(input.count))
                : unsafe EVP_DecryptUpdate(context, out, &length, input, Int32(input.count))
        }
        guard updated == 1, length > 0 else {
            if encrypt { throw .cryptoFailure }
            ERR_clear_error()
            return -1
        }
        return Int(length)
    }
}
