import CBOR

/// A minimal CBOR encoder for the tests (the module only decodes): definite lengths, shortest heads.
enum TestCBOR {
    static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let number): head(0, number)
        case .negative(let number): head(1, number)
        case .bytes(let bytes): head(2, UInt64(bytes.count)) + bytes
        case .text(let text): head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let entries):
            head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .tagged(let tag, let content): head(6, tag) + encode(content)
        case .boolean(let flag): [flag ? 0xF5 : 0xF4]
        case .null: [0xF6]
        case .undefined: [0xF7]
        case .simple(let number): number < 24 ? [0xE0 | number] : [0xF8, number]
        case .float: preconditionFailure("floats are not needed by these tests")
        }
    }

    /// A map from `(key, value)` pairs in the order given.
    static func map(_ pairs: [(CBORValue, CBORValue)]) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: $0.0, value: $0.1) })
    }

    static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<0x100: return [type | 24, UInt8(argument)]
        case 0x100..<0x1_0000: return [type | 25] + bigEndian(argument, count: 2)
        case 0x1_0000..<0x1_0000_0000: return [type | 26] + bigEndian(argument, count: 4)
        default: return [type | 27] + bigEndian(argument, count: 8)
        }
    }

    static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
