/// A startup error in one `vendors.<name>` entry.
///
/// `path` is the member path inside the entry (`claims.video.room`, `parameters.room.pattern`, `keys[1].secret`,
/// `apiSecret`; empty for the entry itself), so the configuration layer reports `vendors.<name>.<path>`.
/// `reason` is one line and never shows secret material (secrets, private keys, project keys).
public struct VendorTemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of mistake it is.
    public enum Kind: Sendable, Equatable {
        /// A member the entry may not have; `suggestion` is the path of the closest allowed member of the same
        /// object (`parameters.room.pattern` for `parameters.room.patern`), if any.
        case unknownMember(suggestion: String?)
        /// A member with a value that is refused; `reason` says why.
        case invalid
    }

    /// The member path inside the entry; empty for the entry as a whole.
    public let path: String
    /// What kind of mistake it is.
    public let kind: Kind
    /// One line naming the rule; never secret material.
    public let reason: String

    /// Creates an error.
    public init(path: String, kind: Kind = .invalid, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// `<path>: <reason>`, with "did you mean …?" for an unknown member that has a suggestion.
    public var description: String {
        let location = path.isEmpty ? "" : "\(path): "
        if case .unknownMember(let suggestion?) = kind {
            return "\(location)\(reason) (did you mean \(suggestion)?)"
        }
        return "\(location)\(reason)"
    }
}
