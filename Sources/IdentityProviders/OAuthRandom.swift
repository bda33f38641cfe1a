import Cryptography

/// Random values of the browser flow: tokenvend's `state` and `nonce` toward the provider and the one-time codes it
/// gives the app, and the hashes they are stored under.
///
/// ```swift
/// let state = try OAuthRandom.token()          // 43 base64url characters (32 random bytes)
/// let key = try OAuthRandom.sha256Hex(state)   // 64 lowercase hex digits: what the store keeps
/// ```
public enum OAuthRandom {
    /// Random bytes in a `token()`: 32 (256 bits).
    public static let tokenByteCount = 32

    /// 32 random bytes, base64url without padding: 43 characters of `[A-Za-z0-9_-]`.
    ///
    /// - Throws: `OAuthRandomError.generatorFailed` when the system generator fails (not seeded).
    public static func token() throws(OAuthRandomError) -> String {
        do {
            return try SecureRandom.base64URL(byteCount: tokenByteCount)
        } catch {
            throw .generatorFailed
        }
    }

    /// The lowercase hex SHA-256 of the UTF-8 bytes of `text` (64 characters).
    ///
    /// - Throws: `OAuthRandomError.generatorFailed` when OpenSSL fails.
    public static func sha256Hex(_ text: String) throws(OAuthRandomError) -> String {
        do {
            return IDTokenVerifier.hex(try SHA256.hash(Array(text.utf8)))
        } catch {
            throw .generatorFailed
        }
    }
}

/// Why a random value or a hash could not be made (OpenSSL failed; nothing the caller sent is at fault).
public enum OAuthRandomError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system's random generator or digest failed.
    case generatorFailed

    /// A short sentence for the log.
    public var description: String { "random generator or SHA-256 failed" }
}
