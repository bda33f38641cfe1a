import Foundation
public import PasswordHash

/// The rules for new passwords: `minLength`…128 characters after Unicode NFC normalisation, and not one of the
/// 10,000 most common passwords (`CommonPasswords`).
///
/// Characters are counted as grapheme clusters, so a password typed as "é" is one character whether the
/// keyboard sent one scalar or two. A byte cap (16 bytes a character) stops a "128-character" password made
/// of thousands of combining marks from reaching Argon2id.
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
        guard raw.utf8.count <= maxBytes * 2 else { return .failure(.length) }
        let password = Password(raw)
        guard password.byteCount <= maxBytes, (minLength...maxLength).contains(password.characterCount) else {
            return .failure(.length)
        }
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
