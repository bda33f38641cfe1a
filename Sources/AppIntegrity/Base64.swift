import Cryptography

/// Standard base64 (RFC 4648 §4), the form `DCAppAttestService` and the Play Console use.
package enum Base64 {
    /// The bytes of `text`, padded or not, surrounding whitespace ignored (configuration values); nil for
    /// anything else.
    package static func decodeLenient(_ text: String) -> [UInt8]? {
        let trimmed = text.filter { !$0.isWhitespace }
        guard !trimmed.contains("-"), !trimmed.contains("_") else { return nil }
        var unpadded = Substring(trimmed)
        var padding = 0
        while unpadded.hasSuffix("=") {
            unpadded = unpadded.dropLast()
            padding += 1
        }
        guard padding == 0 || trimmed.count.isMultiple(of: 4), padding <= 2 else { return nil }
        return Base64URL.decode(String(unpadded.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }))
    }

    /// The bytes of `text` only when it is the one canonical padded encoding (request members such as `keyId`,
    /// so that one key has one id); nil for anything else.
    package static func decodeCanonical(_ text: String) -> [UInt8]? {
        guard text.utf8.count.isMultiple(of: 4), let bytes = decodeLenient(text), encode(bytes) == text else {
            return nil
        }
        return bytes
    }

    /// The padded standard encoding of `bytes`.
    package static func encode(_ bytes: [UInt8]) -> String {
        var text = String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while !text.utf8.count.isMultiple(of: 4) { text += "=" }
        return text
    }
}
