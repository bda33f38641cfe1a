/// A startup error in the `email` section: the key path (`email.smtp.url`, `email.templates.sign_in.subject`)
/// and one line naming the rule. Never shows a password or a whole template.
public struct MailConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The full key path, starting with `email.`.
    public var path: String
    /// One line naming the rule that refused the value.
    public var reason: String

    /// An error at `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `<path>: <reason>`.
    public var description: String { "\(path): \(reason)" }
}
