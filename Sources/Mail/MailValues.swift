/// The values a template's placeholders take.
public struct MailValues: Sendable {
    /// `{{code}}`: the code, ASCII digits; required for kinds that carry one, ignored for the others.
    public var code: String?
    /// `{{minutes}}`: how long the code is valid, in whole minutes (1–1440).
    public var minutes: Int
    /// `{{appName}}`: the application's name (`email.appName`).
    public var appName: String
    /// `{{email}}`: the address the message is about (the new one for `email_change`, the new one in the notice).
    public var email: String

    /// Values for one message.
    public init(code: String?, minutes: Int, appName: String, email: String) {
        self.code = code
        self.minutes = minutes
        self.appName = appName
        self.email = email
    }
}
