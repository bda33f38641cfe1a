import Cryptography

/// Standard base64 with padding (RFC 4648 §4), decoded strictly: the way DCAppAttestService's key ids and the
/// request bodies' `attestation` and `assertion` arrive.
package enum StandardBase64 {
    /// The bytes of `text`, or nil unless it is canonical padded base64 (length a multiple of 4, `=` only as the
    /// last one or two characters and only as many as needed, zero unused bits, no `-`, `_`, or whitespace).
    package static func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            padding += 1
        }
        // Exactly the padding the length needs: 2 leftover characters take `==`, 3 take `=`.
        guard padding == (4 - characters.count % 4) % 4 else { return nil }
        for index in characters.indices {
            switch characters[index] {
            case UInt8(ascii: "+"): characters[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): characters[index] = UInt8(ascii: "_")
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "="): return nil
            default: break
            }
        }
        return Base64URL.decode(String(decoding: characters, as: UTF8.self))
    }

    /// The bytes of `text`, padded or not, whitespace ignored: configuration values pasted from the Play Console,
    /// and request members where only the decoded bytes matter (`attestation`, `assertion`). Nil for anything else.
    package static func decodeLenient(_ text: String) -> [UInt8]? {
        var compact = text.filter { !$0.isWhitespace }
        while compact.hasSuffix("=") { compact.removeLast() }
        guard !compact.contains("-"), !compact.contains("_"), !compact.contains("=") else { return nil }
        return Base64URL.decode(String(compact.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }))
    }
}
