import Store

/// Bytes as lowercase hex and back, for `bytea` values in the text-format pipeline (`decode($n, 'hex')` on the way
/// in, `encode(column, 'hex')` on the way out).
enum PostgresHex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The lowercase hex of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text` (hex digits of either case, an even count).
    /// - Throws: `.misuse` for anything else.
    static func decode(_ text: String) throws(StoreError) -> [UInt8] {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else { throw .misuse("odd hex length") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = value(characters[index]), let low = value(characters[index + 1]) else {
                throw .misuse("not hex")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
