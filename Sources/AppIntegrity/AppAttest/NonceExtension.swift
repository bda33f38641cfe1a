/// App Attest's nonce extension (`1.2.840.113635.100.8.2` in the leaf certificate): DER
/// `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`, read exactly (definite lengths, nothing after).
enum NonceExtension {
    /// The extension's OID.
    static let oid = "1.2.840.113635.100.8.2"

    /// The nonce inside `der`, or nil when `der` is not exactly that structure.
    static func nonce(in der: [UInt8]) -> [UInt8]? {
        guard let sequence = element(der, tag: 0x30), let explicit = element(sequence, tag: 0xA1) else { return nil }
        return element(explicit, tag: 0x04)
    }

    /// The content of the one DER element with `tag` that makes up all of `bytes`.
    private static func element(_ bytes: [UInt8], tag: UInt8) -> [UInt8]? {
        guard bytes.count >= 2, bytes[0] == tag else { return nil }
        var length = Int(bytes[1])
        var start = 2
        if length >= 0x80 {
            // Long form: 1 or 2 length bytes, minimal (DER, X.690 §10.1).
            let count = length & 0x7F
            guard count == 1 || count == 2, bytes.count >= 2 + count else { return nil }
            length = bytes[2..<2 + count].reduce(0) { $0 << 8 | Int($1) }
            guard length >= 0x80, count == 1 || length > 0xFF else { return nil }
            start += count
        }
        guard bytes.count == start + length else { return nil }
        return Array(bytes[start...])
    }
}
