/// A JSON value (RFC 8259) whose objects keep their members in order.
///
/// Integers without fraction or exponent that fit in `Int64` parse as `.integer`; every other number as
/// `.double`. Literals work: `let claims: JSONObject = ["sub": "u1", "exp": 1_700_000_000, "tenantId": nil]`.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int64`.
    case integer(Int64)
    /// Any other number. Non-finite values serialize as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in order.
    case object(JSONObject)

    /// The string, when this is `.string`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is `.integer`, or a `.double` rounded down when that fits in `Int64`.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .double(let value): return Int64(exactly: value.rounded(.down))
        default: return nil
        }
    }

    /// The number as a `Double`, when this is `.integer` or `.double`.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The Boolean, when this is `.bool`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The object, when this is `.object`.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is `.array`.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// Whether this is `.null`.
    public var isNull: Bool { self == .null }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `.array`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `.object`, members in the order written. Duplicate names are a programmer error.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(name: $0.0, value: $0.1) }))
    }
}
