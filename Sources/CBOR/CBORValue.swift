/// One decoded CBOR data item (RFC 8949 §3): every major type, with map entries kept in their encoded order.
///
/// Integers keep their full 64-bit range: a negative integer is stored as `n` for the value `-1 - n`
/// (RFC 8949 §3.1, major type 1), so `-2^64` is representable. Tags keep their number and content; simple values
/// other than `false`, `true`, `null` and `undefined` keep their number.
public indirect enum CBORValue: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the negative integer `-1 - n` for the payload `n`.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a text string (valid UTF-8).
    case text(String)
    /// Major type 4: an array.
    case array([CBORValue])
    /// Major type 5: a map, its entries in encoded order (keys of any type, never duplicated).
    case map([CBORMapEntry])
    /// Major type 6: a tag number and its content.
    case tagged(UInt64, CBORValue)
    /// Major type 7: `false` or `true` (simple values 20 and 21).
    case boolean(Bool)
    /// Major type 7: `null` (simple value 22).
    case null
    /// Major type 7: `undefined` (simple value 23).
    case undefined
    /// Major type 7: another simple value (0–19, 32–255).
    case simple(UInt8)
    /// Major type 7: a half, single or double precision float, widened to `Double`.
    case float(Double)

    /// The value of `key` when this is a map; nil when it is not a map or has no such key.
    public subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The value of the text key `key` when this is a map.
    public subscript(key: String) -> CBORValue? { self[.text(key)] }

    /// The value of the integer key `key` when this is a map (COSE keys use integer labels, RFC 9052 §7).
    public subscript(key: Int) -> CBORValue? { self[CBORValue(key)] }

    /// The integer `value` as major type 0 or 1.
    public init(_ value: Int) {
        self = value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The bytes of a byte string; nil for any other type.
    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The text of a text string; nil for any other type.
    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The elements of an array; nil for any other type.
    public var arrayValue: [CBORValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The entries of a map; nil for any other type.
    public var mapValue: [CBORMapEntry]? {
        if case .map(let entries) = self { return entries }
        return nil
    }

    /// The value of an integer (major type 0 or 1) when it fits an `Int`; nil otherwise.
    public var intValue: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }
}

/// One key–value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Hashable {
    /// The key (any CBOR type).
    public var key: CBORValue
    /// The value.
    public var value: CBORValue

    /// Creates an entry.
    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
