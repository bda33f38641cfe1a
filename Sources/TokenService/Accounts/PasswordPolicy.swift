import FoundationEssentials
public import PasswordHash

/// The rules for new passwords: `minLength`…128 characters, counted as Unicode code points as sent, and not one of
/// the 10,000 most common passwords (`CommonPasswords`).
///
/// Code points, as NIST SP 800-63B §5.1.1.2 asks and as JSON Schema's `minLength`/`maxLength` in
/// docs/openapi.yaml count, so a password that the published schema allows is never refused on length.
/// The password is hashed in its NFC form (`Password`), so "é" typed precomposed or decomposed logs in the
/// same. A byte cap (16 bytes a character) on the normalised form bounds what reaches Argon2id.
public struct PasswordPolicy: Sendable {
    /// The fewest characters accepted (`password.minLength`, 8…128, default 12).
    public let minLength: Int
    /// The most characters accepted: 128.
    public let maxLength = 128
    /// The most UTF-8 bytes accepted after normalisation.
    public var maxBytes: Int { maxLength * 16 }

    /// Why a new password was refused.
    public enum Rejection: Error, Sendable, Equatable {
        /// Outside `minLength`…`maxLength` characters (or over `maxBytes`): 400 `invalid_request`.
        case length
        /// One of the 10,000 most common passwords: 400 `weak_password`.
        case common
    }

    /// Creates a policy with the configured minimum.
    public init(minLength: Int = 12) {
        self.minLength = minLength
    }

    /// The normalised password, or why it is refused (registration, `users add`). Length is checked first.
    public func newPassword(_ raw: String) -> Result<Password, Rejection> {
        guard (minLength...maxLength).contains(raw.unicodeScalars.count) else { return .failure(.length) }
        let password = Password(raw)
        guard password.byteCount <= maxBytes else { return .failure(.length) }
        guard !CommonPasswords.contains(raw) else { return .failure(.common) }
        return .success(password)
    }

    /// The normalised password when it could match a stored hash (at most `maxLength` characters and
    /// `maxBytes` bytes), else nil. Login applies neither the minimum nor the common-password list: the policy
    /// may have been tightened since the account was made.
    public func boundedPassword(_ raw: String) -> Password? {
        guard raw.utf8.count <= maxBytes * 2 else { return nil }
        let password = Password(raw)
        guard password.byteCount <= maxBytes, password.characterCount <= maxLength else { return nil }
        return password
    }
}
