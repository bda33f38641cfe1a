/// Who verified a user's email (`users.email_verified_by`): what `POST /auth/idtoken` and the browser sign-in
/// weigh before linking a provider identity to the account by its email.
///
/// Stored as text: `operator`, `email_code`, or `provider:<name>`. A verified email whose source is unknown (a
/// value this code does not know) reads as nil and is never trusted for linking.
public enum EmailVerificationSource: Sendable, Hashable, CustomStringConvertible {
    /// An operator: `tokenvend users add` (an account created with its email verified) or
    /// `tokenvend users verify-email`.
    case `operator`
    /// The user proved the address with a code sent to it (reserved for the email-code sign-in).
    case emailCode
    /// The identity provider of that configured name vouched for the email when it created the account.
    case provider(String)

    /// The stored text.
    public var storedValue: String {
        switch self {
        case .operator: "operator"
        case .emailCode: "email_code"
        case .provider(let name): "provider:" + name
        }
    }

    /// The source a stored text names; nil for anything else.
    public init?(storedValue: String) {
        switch storedValue {
        case "operator": self = .operator
        case "email_code": self = .emailCode
        default:
            guard storedValue.hasPrefix("provider:") else { return nil }
            let name = String(storedValue.dropFirst("provider:".count))
            guard !name.isEmpty else { return nil }
            self = .provider(name)
        }
    }

    public var description: String { storedValue }
}
