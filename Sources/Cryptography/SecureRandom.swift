internal import COpenSSL

/// The project's one generator of secrets: cryptographically secure random bytes from OpenSSL's DRBG
/// (`RAND_bytes`), for keys, CSRF tokens and nonces. (`HMACKey.generateSecret` uses it and
/// refuses fewer than 64 bytes.)
///
/// ```swift
/// let csrf = try SecureRandom.base64URL(byteCount: 32)  // 43 characters
/// let suffix = try SecureRandom.hex(byteCount: 8)       // 16 characters
/// ```
public enum SecureRandom {
    /// `count` random bytes.
    /// - Parameter count: 1 to `Int32.max` (a programmer error otherwise).
    /// - Throws: `CryptographyError.cryptoFailure` when the generator fails (not seeded).
    public static func bytes(count: Int) throws(CryptographyError) -> [UInt8] {
        precondition(count > 0 && count <= Int(Int32.max))
        var bytes = [UInt8](repeating: 0, count: count)
        let status = unsafe bytes.withUnsafeMutableBufferPointer { unsafe RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard status == 1 else { throw .cryptoFailure }
        return bytes
    }

    /// `byteCount` random bytes, base64url-encoded without padding (`4 × byteCount / 3` characters, rounded
    /// up: 43 for 32 bytes).
    /// - Throws: `CryptographyError.cryptoFailure` when the generator fails.
    public static func base64URL(byteCount: Int) throws(CryptographyError) -> String {
        Base64URL.encode(try bytes(count: byteCount))
    }

    /// `byteCount` random bytes as lowercase hexadecimal (`2 × byteCount` characters).
    /// - Throws: `CryptographyError.cryptoFailure` when the generator fails.
    public static func hex(byteCount: Int) throws(CryptographyError) -> String {
        Hex.encode(try bytes(count: byteCount))
    }
}
