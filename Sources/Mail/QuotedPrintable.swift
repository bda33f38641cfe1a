/// Quoted-printable (RFC 2045 §6.7) for a UTF-8 text part: lines end with CRLF, every output line is at most 76
/// characters, `=` and every byte outside printable ASCII are `=XX`, and a space or tab before a line end is
/// encoded so no transport can strip it. No output line can start a MIME boundary that begins with `=_`: a literal
/// `=` is always followed by two hex digits or a line end.
enum QuotedPrintable {
    /// The longest encoded line, in characters, before the CRLF.
    static let lineWidth = 76

    /// `text` (lines split at `\n`) encoded; the result ends with CRLF exactly when `text` ends with `\n`.
    static func encode(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if index > 0 { output += [0x0D, 0x0A] }
            encodeLine(Array(line), into: &output)
        }
        return output
    }

    private static func encodeLine(_ line: [UInt8], into output: inout [UInt8]) {
        var length = 0
        for (index, byte) in line.enumerated() {
            let isLast = index == line.count - 1
            let literal =
                (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=")
                || ((byte == 0x20 || byte == 0x09) && !isLast)
            let token: [UInt8] = literal ? [byte] : [UInt8(ascii: "="), hex(byte >> 4), hex(byte & 0x0F)]
            // Room for a soft break's "=" unless this token ends the line.
            let limit = isLast ? lineWidth : lineWidth - 1
            if length + token.count > limit {
                output += [UInt8(ascii: "="), 0x0D, 0x0A]
                length = 0
            }
            output += token
            length += token.count
        }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
