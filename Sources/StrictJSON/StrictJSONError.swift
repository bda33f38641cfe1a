/// Every way `JSONParser` can refuse a text.
///
/// No case carries text taken from the input, so an error can be logged or returned to a client without
/// echoing it.
public enum StrictJSONError: Error, Sendable, Equatable, CaseIterable {
    /// Not valid UTF-8 JSON (RFC 8259): a syntax error, invalid UTF-8, a lone surrogate, a control character in
    /// a string, a leading zero, a byte-order mark or trailing content.
    case invalid
    /// Valid JSON, but not an object where one is required.
    case notAnObject
    /// An object has two members with the same name (compared byte for byte).
    case duplicateMember
    /// Containers nested deeper than `JSONParser.maximumDepth` (64) levels.
    case nestingTooDeep
}

extension StrictJSONError: CustomStringConvertible {
    /// A few words naming the rule that failed; never contains input text.
    public var description: String {
        switch self {
        case .invalid: "invalid JSON"
        case .notAnObject: "JSON is not an object"
        case .duplicateMember: "duplicate JSON member"
        case .nestingTooDeep: "JSON nested too deeply"
        }
    }
}
