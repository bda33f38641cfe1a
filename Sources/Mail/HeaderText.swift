#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Header-value rules and encodings (RFC 5322, RFC 2047): the one place text becomes header bytes.
enum HeaderText {
    /// The longest header line written, in octets, before a fold: RFC 5322 §2.1.1's "SHOULD" of 78.
    static let foldWidth = 78

    /// Whether `text` holds CR, LF or NUL: what would end or forge a header.
    static func hasControlCharacter(_ text: some StringProtocol) -> Bool {
        text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: some StringProtocol) -> String {
        let bytes = Array(text.utf8)
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// RFC 5322 `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    static func isAtext(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Array("!#$%&'*+-/=?^_`{|}~".utf8).contains(byte)
        }
    }

    /// A `dot-atom-text`: atoms of `atext` separated by single dots.
    static func isDotAtom(_ text: some StringProtocol) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { atom in
            !atom.isEmpty && atom.utf8.allSatisfy(isAtext)
        }
    }

    /// A display name as a `phrase`: atoms as written when it is one or more atoms separated by single spaces, a
    /// quoted string when it is other printable ASCII, RFC 2047 encoded-words otherwise (or when long).
    static func phrase(_ name: String) -> String {
        let bytes = Array(name.utf8)
        let atoms = name.split(separator: " ", omittingEmptySubsequences: false)
        if atoms.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isAtext) }), bytes.count <= 200 {
            return name
        }
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) }), !name.contains("=?"), bytes.count <= 200 {
            var quoted = "\""
            for character in name {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\""
        }
        return encodedWords(name)
    }

    /// An unstructured value (`Subject`) for a field called `name`: as written, folded at spaces, when it is
    /// printable ASCII (tabs allowed) without `=?` and every word fits a line; RFC 2047 encoded-words otherwise.
    static func unstructured(_ value: String, field name: String) -> String {
        let bytes = Array(value.utf8)
        let plain = bytes.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 } && !value.contains("=?")
        let words = value.split(separator: " ", omittingEmptySubsequences: false)
        guard plain, words.allSatisfy({ $0.utf8.count <= 900 }) else { return encodedWords(value) }
        // Greedy folding: a CRLF goes before a space when the line would pass the width (RFC 5322 §2.2.3); the
        // reader removes the CRLF and keeps the space, so the value is unchanged.
        var result = ""
        var lineLength = name.utf8.count + 2
        for (index, word) in words.enumerated() {
            if index > 0 {
                if lineLength + 1 + word.utf8.count > foldWidth, lineLength > 0, !word.isEmpty {
                    result += "\r\n"
                    lineLength = 0
                }
                result += " "
                lineLength += 1
            }
            result += word
            lineLength += word.utf8.count
        }
        return result
    }

    /// RFC 2047 `B` encoded-words in UTF-8, each holding whole characters, separated by folds (the whitespace
    /// between encoded-words is not part of the decoded text).
    static func encodedWords(_ text: String) -> String {
        // At most 39 bytes a word: "=?utf-8?B?" + 52 base64 characters + "?=" is 64 characters, so a field name
        // and a word fit in 78 (RFC 2047 allows 75 a word).
        var chunks: [[UInt8]] = []
        var current: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if current.count + encoded.count > 39 {
                chunks.append(current)
                current = []
            }
            current += encoded
        }
        if !current.isEmpty || chunks.isEmpty { chunks.append(current) }
        return chunks.map { "=?utf-8?B?" + Data($0).base64EncodedString() + "?=" }.joined(separator: "\r\n ")
    }
}
