import UnicodeText

/// An email address in the one form tokenvend stores and compares: Unicode NFKC, lowercased, trimmed.
///
/// API.md: unique after normalisation (NFKC, lowercase, trim); control characters or spaces inside are
/// refused; at most 254 bytes (RFC 5321 §4.5.3.1.3). Beyond that only the shape `local@domain` is checked:
/// deliverability is not this service's business.
///
/// NFKC (compatibility) rather than NFC folds the characters Unicode defines as formatting variants of others:
/// full-width `ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ` (what a CJK keyboard types), ligatures (`ﬁ`), superscripts, circled
/// and mathematical letters all become the plain address, so such a look-alike of a registered address is that
/// account, not a second one. Look-alike characters from other scripts are *not* folded (NFKC keeps Cyrillic
/// "а" apart from Latin "a"): those are distinct characters, and so a different account.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The normalised address.
    public let value: String

    /// Normalises and validates `raw`, or returns nil when it is not an acceptable address.
    public init?(_ raw: String) {
        let normalised = Self.normalise(raw)
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

    /// NFKC, lowercased, NFKC again (lowercasing can leave a string that NFKC would change; this way
    /// normalising the result again gives it back), then trimmed of surrounding whitespace.
    static func normalise(_ raw: String) -> String {
        UnicodeText.trimmingWhitespaceAndNewlines(UnicodeText.nfkc(UnicodeText.nfkc(raw).lowercased()))
    }
}
