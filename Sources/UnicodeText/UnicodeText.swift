import CUnistring

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The Unicode text rules the server needs, without Foundation: normalisation forms C and KC on GNU
/// libunistring (`u8_normalize`), and trimming of surrounding whitespace.
///
/// The Swift standard library compares strings by canonical equivalence but offers no normalised copy, and
/// Foundation's `precomposedString…Mapping` pulls in ICU's data; libunistring is already in the process (libcurl
/// loads it through libidn2), so this costs no new library at run time.
public enum UnicodeText {
    /// `text` in normalisation form C (canonical decomposition, then canonical composition).
    public static func nfc(_ text: String) -> String {
        unsafe normalise(text, form: tokenvend_uninorm_nfc())
    }

    /// `text` in normalisation form KC (compatibility decomposition, then canonical composition): full-width
    /// forms, ligatures, circled and mathematical letters fold to their plain characters.
    public static func nfkc(_ text: String) -> String {
        unsafe normalise(text, form: tokenvend_uninorm_nfkc())
    }

    /// `text` without leading and trailing white space and line ends: the Unicode scalars of general category
    /// Z (space, line and paragraph separators), U+0009 to U+000D and U+0085, the set Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` removes. Scalars, not characters, are trimmed, so a
    /// combining mark after a trailing space stays (with its space), as with Foundation.
    public static func trimmingWhitespaceAndNewlines(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespaceOrNewline($0) }),
            let last = scalars.lastIndex(where: { !isWhitespaceOrNewline($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Whether `scalar` is in Foundation's `CharacterSet.whitespacesAndNewlines`.
    static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x85: return true
        default:
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// Runs `u8_normalize`; the result is a fresh `malloc`ed buffer, copied into a `String` and freed.
    private static func normalise(_ text: String, form: uninorm_t) -> String {
        // ASCII is its own NFC and NFKC: the common case skips the C call and its copy.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var copy = text
        return copy.withUTF8 { bytes in
            var length = 0
            guard let result = unsafe u8_normalize(form, bytes.baseAddress, bytes.count, nil, &length) else {
                // Only when out of memory (ENOMEM), or on input that is not UTF-8, which a String never is.
                preconditionFailure("u8_normalize failed: errno \(errno)")
            }
            defer { unsafe free(result) }
            return unsafe String(decoding: UnsafeBufferPointer(start: result, count: length), as: UTF8.self)
        }
    }
}
