/// Base64url (RFC 4648 §5) in plain Swift: the encoding of every binary member of WebAuthn's JSON forms, of PKCE
/// values and of DPoP proofs. Written without padding; read with or without it, nothing else tolerated.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` as base64url without padding.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let chunk =
                UInt32(bytes[index]) << 16 | (remaining > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                | (remaining > 2 ? UInt32(bytes[index + 2]) : 0)
            let characters = remaining >= 3 ? 4 : remaining + 1
            for position in 0..<characters { text.append(alphabet[Int((chunk >> UInt32(18 - 6 * position)) & 0x3f)]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil when it is not base64url: a character outside `A–Z a–z 0–9 - _`, a length
    /// of 1 modulo 4, padding that is not at the end or not of the right length, or non-zero bits after the last
    /// byte (so every byte string has exactly one accepted spelling without padding).
    static func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        if characters.count % 4 == 0, characters.last == UInt8(ascii: "=") {
            let padding = characters.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard padding <= 2 else { return nil }
            characters.removeLast(padding)
        }
        guard characters.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in characters {
            guard let value = sextet(character) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        guard buffer == 0 else { return nil }
        return bytes
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
