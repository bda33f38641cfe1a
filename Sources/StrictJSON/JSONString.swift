/// The project's one JSON string writer: appends a quoted, escaped JSON string (RFC 8259 §7) to a byte buffer.
///
/// `"` and `\` are always escaped, and so is every control character below U+0020; `/` and non-ASCII text are
/// written as they are. What differs between callers is only the form of a few escapes, chosen with `Escaping`.
///
/// ```swift
/// var body: [UInt8] = []
/// JSONString.append("line\n", to: &body)                      // "line\n"
/// JSONString.append("line\n", to: &body, escaping: [])        // "line\u000a"
/// JSONString.append("bell\u{7F}", to: &body, escaping: .log)  // "bell\u007f"
/// ```
public enum JSONString {
    /// How control characters and DEL are written.
    public struct Escaping: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8

        /// Creates a set of escaping choices from its bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `\n`, `\r` and `\t` as their two-character escapes, as `JSONEncoder` writes them; without it they are
        /// written as `\u000a`, `\u000d` and `\u0009` like every other control character.
        public static let shortEscapes = Escaping(rawValue: 1 << 0)
        /// DEL (U+007F) as `\u007f`, so it never reaches a terminal; JSON itself does not require it.
        public static let delete = Escaping(rawValue: 1 << 1)

        /// What `JSONEncoder` writes: short escapes, DEL as is. Used for tokens and response bodies.
        public static let standard: Escaping = [.shortEscapes]
        /// For log lines read on terminals: short escapes and DEL escaped.
        public static let log: Escaping = [.shortEscapes, .delete]
    }

    /// Appends `string` as a quoted JSON string.
    ///
    /// Strings that need no escape (the usual case) are scanned and copied in one pass.
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - output: The buffer to append to.
    ///   - escaping: The form of control-character and DEL escapes. Default: `.standard`.
    @inlinable
    public static func append(_ string: String, to output: inout [UInt8], escaping: Escaping = .standard) {
        output.append(UInt8(ascii: "\""))
        let escapeDelete = escaping.contains(.delete)
        let copied = unsafe string.utf8.withContiguousStorageIfAvailable { bytes in
            var index = 0
            while index < bytes.count {
                if needsEscape(unsafe bytes[index], escapeDelete: escapeDelete) { return false }
                index += 1
            }
            unsafe output.append(contentsOf: bytes)
            return true
        }
        if copied != true { appendEscaped(string, to: &output, escaping: escaping) }
        output.append(UInt8(ascii: "\""))
    }

    /// Whether `byte` must be escaped inside a JSON string: controls, `"`, `\`, and DEL when `escapeDelete`.
    @inlinable
    public static func needsEscape(_ byte: UInt8, escapeDelete: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapeDelete && byte == 0x7F)
    }

    /// The slow path: byte by byte, escaping as `escaping` says.
    @usableFromInline
    static func appendEscaped(_ string: String, to output: inout [UInt8], escaping: Escaping) {
        let short = escaping.contains(.shortEscapes)
        let escapeDelete = escaping.contains(.delete)
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case 0x0A where short: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D where short: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09 where short: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                appendUnicodeEscape(byte, to: &output)
            case 0x7F where escapeDelete:
                appendUnicodeEscape(byte, to: &output)
            default: output.append(byte)
            }
        }
    }

    /// Appends `\u00XX` for a byte below 0x80.
    private static func appendUnicodeEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
        output.append(hexDigit(byte >> 4))
        output.append(hexDigit(byte & 0x0F))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
