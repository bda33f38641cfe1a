extension JSONValue {
    /// A short rendering for one-line error messages: strings quoted and cut at 40 characters (control characters
    /// shown as `?`), numbers and literals as written, lists and objects named. Never use it on a secret.
    public var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value):
            let cut = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "\""
                + cut.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }
                .joined() + "\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// The value's type with an article (`a string`, `a list`, `an object`), for messages that must not show
    /// the value.
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}
