internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`), for anything that must be
/// unguessable and is not an HMAC key: CSRF tokens, nonces. (Keys come from `HMACKey.generateSecret`, which
/// refuses fewer than 64 bytes.)
///
/// ```swift
/// let csrf = try SecureRandom.base64URL(byteCount: 32)  // 43 characters
/// ```
public enum SecureRandom {
    /// `count` random bytes.
    /// - Parameter count: 1 to `Int32.max` (a programmer error otherwise).
    /// - Throws: `JWTError.cryptoFailure` when the generator fails (not seeded).
    public static func bytes(count: Int) throws(JWTError) -> [UInt8] {
        precondition(count > 0 && count <= Int(Int32.max))
        var bytes = [UInt8](repeating: 0, count: count)
        let status = unsafe bytes.withUnsafeMutableBufferPointer { unsafe RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard status == 1 else { throw .cryptoFailure }
        return bytes
    }

    /// `byteCount` random bytes, base64url-encoded without padding (`4 × byteCount / 3` characters, rounded
    /// up: 43 for 32 bytes).
    /// - Throws: `JWTError.cryptoFailure` when the generator fails.
    public static func base64URL(byteCount: Int) throws(JWTError) -> String {
        Base64URL.encode(try bytes(count: byteCount))
    }
}
