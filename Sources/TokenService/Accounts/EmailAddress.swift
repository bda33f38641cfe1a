import Foundation

/// An email address in the one form tokenvend stores and compares: trimmed, Unicode NFC, lowercased.
///
/// API.md: unique after normalisation (trim, NFC, lowercase); control characters or spaces inside are
/// refused; at most 254 bytes (RFC 5321 §4.5.3.1.3). Beyond that only the shape `local@domain` is checked:
/// deliverability is not this service's business. Look-alike characters from other scripts are *not*
/// folded (NFC keeps Cyrillic "а" apart from Latin "a"), so a look-alike address is a different account.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The normalised address.
    public let value: String

    /// Normalises and validates `raw`, or returns nil when it is not an acceptable address.
    public init?(_ raw: String) {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let normalised = trimmed.precomposedStringWithCanonicalMapping.lowercased()
        guard !normalised.isEmpty, normalised.utf8.count <= 254 else { return nil }
        for scalar in normalised.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned,
                .privateUse, .surrogate:
                return nil
            default:
                continue
            }
        }
        let parts = normalised.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last,
            !local.isEmpty, local.utf8.count <= 64, !domain.isEmpty,
            !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains("..")
        else { return nil }
        value = normalised
    }

    public var description: String { value }
}
