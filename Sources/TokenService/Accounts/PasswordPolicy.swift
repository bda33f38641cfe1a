import Foundation

/// The length rule for passwords: `minLength`…128 characters after Unicode NFC normalisation.
///
/// Characters are counted as grapheme clusters, so a password typed as "é" is one character whether the
/// keyboard sent one scalar or two. The upper bound keeps Argon2id's input and the request size sane.
public struct PasswordPolicy: Sendable {
    /// The fewest characters accepted (`password.minLength`, default 8).
    public let minLength: Int
    /// The most characters accepted: 128.
    public let maxLength = 128

    /// Creates a policy with the configured minimum.
    public init(minLength: Int = 8) {
        self.minLength = minLength
    }

    /// The NFC form of `password` as UTF-8 bytes, or nil when its length is outside the policy.
    public func normalise(_ password: String) -> [UInt8]? {
        let normalised = password.precomposedStringWithCanonicalMapping
        // Cheap guard first: a string of more than 4 × 128 bytes cannot be 128 characters or fewer.
        guard normalised.utf8.count <= maxLength * 4 * 4 else { return nil }
        let count = normalised.count
        guard count >= minLength, count <= maxLength else { return nil }
        return Array(normalised.utf8)
    }
}
