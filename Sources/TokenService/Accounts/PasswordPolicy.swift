public import PasswordHash

/// The length rule for passwords: `minLength`…128 characters, counted as Unicode code points as sent.
///
/// Code points, as NIST SP 800-63B §5.1.1.2 asks and as JSON Schema's `minLength`/`maxLength` in
/// docs/openapi.yaml count, so a password that the published schema allows is never refused on length.
/// The password is hashed in its NFC form (`Password`), so "é" typed precomposed or decomposed logs in the
/// same. A byte cap (16 bytes a character) on the normalised form bounds what reaches Argon2id.
public struct PasswordPolicy: Sendable {
    /// The fewest characters accepted (`password.minLength`, default 8).
    public let minLength: Int
    /// The most characters accepted: 128.
    public let maxLength = 128
    /// The most UTF-8 bytes accepted after normalisation.
    public var maxBytes: Int { maxLength * 16 }

    /// Creates a policy with the configured minimum.
    public init(minLength: Int = 8) {
        self.minLength = minLength
    }

    /// The normalised password, or nil when its length is outside the policy (registration: 400).
    public func password(_ raw: String) -> Password? {
        guard (minLength...maxLength).contains(raw.unicodeScalars.count) else { return nil }
        let password = Password(raw)
        guard password.byteCount <= maxBytes else { return nil }
        return password
    }

    /// The normalised password when it could match a stored hash (at most `maxLength` characters and
    /// `maxBytes` bytes), else nil. Login does not apply the minimum: the policy may have been raised since the
    /// account was made.
    public func boundedPassword(_ raw: String) -> Password? {
        guard raw.utf8.count <= maxBytes * 2 else { return nil }
        let password = Password(raw)
        guard password.byteCount <= maxBytes, password.characterCount <= maxLength else { return nil }
        return password
    }
}
