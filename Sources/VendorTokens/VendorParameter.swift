/// One declared request parameter (`parameters.<name>`), with its rules compiled at startup.
struct VendorParameter: Sendable {
    /// The declared type and its rules.
    enum Kind: Sendable {
        /// A JSON string.
        case string(StringRules)
        /// A JSON integer (no fraction, no exponent) within the bounds.
        case integer(minimum: Int64?, maximum: Int64?)
        /// `true` or `false`.
        case boolean
        /// An object of customer id strings, each pair the caller's own; absent means all of the caller's ids.
        case customerIDs
    }

    /// The rules of a string parameter, checked in this order: length, pattern, enum, then the caller's role.
    struct StringRules: Sendable {
        /// At most this many UTF-8 bytes. Default: 256; at most 4096.
        var maxLength: Int = 256
        /// Must match as a whole, when set.
        var pattern: WholeMatchPattern?
        /// Must be one of these, when set.
        var allowedValues: [String]?
        /// Role → pattern: a value is permitted only when the caller's role is listed and its pattern matches the
        /// whole value; `nil` means every role may use any valid value.
        var allowedByRole: [String: WholeMatchPattern]?
    }

    /// `[A-Za-z_][A-Za-z0-9_]{0,63}`.
    let name: String
    /// The type and its rules.
    let kind: Kind
    /// Whether the body must have it. Default: false.
    let isRequired: Bool

    /// The type as configured: `string`, `integer`, `boolean` or `customerIds`.
    var typeName: String {
        switch kind {
        case .string: "string"
        case .integer: "integer"
        case .boolean: "boolean"
        case .customerIDs: "customerIds"
        }
    }

    /// Whether `name` is a valid parameter name: `[A-Za-z_][A-Za-z0-9_]{0,63}`.
    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 64, isLetter(first) || first == UInt8(ascii: "_") else {
            return false
        }
        return bytes.allSatisfy { isLetter($0) || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}

/// A parameter's value after its checks, in the parameter's type.
enum ParameterValue {
    case string(String)
    case integer(Int64)
    case boolean(Bool)
    /// Pairs sorted by key (as `StreamTokenIssuer` sorts them), so the claims are deterministic.
    case customerIDs([(key: String, value: String)])
}
