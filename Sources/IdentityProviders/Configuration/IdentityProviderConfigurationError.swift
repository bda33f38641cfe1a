/// A startup error in the `identityProviders` section.
///
/// `path` is the member path inside the section (`apple.audiences`, `corp.redirectURIs`; `corp` for the entry,
/// empty for the section itself), so the configuration layer reports `identityProviders.<path>`. The reason is one
/// line and never shows a secret or a key.
public enum IdentityProviderConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A member the entry may not have; `allowed` lists the members it may (for a did-you-mean).
    case unknownMember(path: String, allowed: [String])
    /// A member whose value is refused, or that is missing; `reason` says why.
    case invalid(path: String, reason: String)

    /// The member path inside the section.
    public var path: String {
        switch self {
        case .unknownMember(let path, _), .invalid(let path, _): path
        }
    }

    /// `<path>: <reason>`.
    public var description: String {
        switch self {
        case .unknownMember(let path, _): "\(path): unknown member"
        case .invalid(let path, let reason): path.isEmpty ? reason : "\(path): \(reason)"
        }
    }
}
