/// One parameter value in the body of `POST /vend/<vendor>`, encoded as the JSON type the vendor declares.
///
/// Literals pick the case: `["room_name": "lobby", "count": 3, "muted": true]`. Customer ids are an object of
/// strings: `["customerIds": .customerIds(["registered": "u-1"])]`.
public enum VendorParameterValue: Sendable, Hashable, Codable {
    /// A JSON string (a `string` parameter).
    case string(String)
    /// A JSON integer (an `integer` parameter).
    case integer(Int)
    /// `true` or `false` (a `boolean` parameter).
    case bool(Bool)
    /// A JSON object of strings, e.g. `{"registered": "u-1"}` (a `customerIds` parameter); each pair must be
    /// one of the signed-in user's own customer ids, or the server answers 403 `insufficient_scope`.
    case customerIds([String: String])

    /// Encodes the bare JSON value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .customerIds(let value): try container.encode(value)
        }
    }

    /// Decodes a bare JSON value: `true`/`false`, an integer, a string, or an object of strings.
    /// - Throws: `DecodingError.typeMismatch` for anything else (a fraction, an array, `null`, an object with a
    ///   value that is not a string).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: String].self) {
            self = .customerIds(value)
        } else {
            throw DecodingError.typeMismatch(
                Self.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "not a string, integer, boolean or object of strings"))
        }
    }
}

extension VendorParameterValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    /// A ``string(_:)`` value.
    public init(stringLiteral value: String) { self = .string(value) }

    /// An ``integer(_:)`` value.
    public init(integerLiteral value: Int) { self = .integer(value) }

    /// A ``bool(_:)`` value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
