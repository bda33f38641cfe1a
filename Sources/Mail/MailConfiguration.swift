/// The `email` section: where messages go, who sends them, and their templates.
public struct MailConfiguration: Sendable {
    /// Where messages go (`email.transport`).
    public enum Transport: Sendable {
        /// To an SMTP server.
        case smtp(SMTPSettings)
        /// Into `.eml` files in a folder (the development default).
        case file(directory: String)
        /// Nowhere: the email endpoints answer 503.
        case off
    }

    /// Where messages go. Default: `smtp` when `email.smtp.url` is set, else `file` into `data/outbox`.
    public var transport: Transport
    /// The `From` of every message (`email.from`). Default: `tokenvend <no-reply@localhost>`.
    public var from: Mailbox
    /// `{{appName}}` (`email.appName`). Default: `tokenvend`.
    public var appName: String
    /// The templates, checked against ``appName``.
    public var templates: MailTemplates

    /// The default `email.from`.
    public static let defaultFrom = "tokenvend <no-reply@localhost>"
    /// The default `email.appName`.
    public static let defaultAppName = "tokenvend"
    /// The default `email.fileDirectory`.
    public static let defaultFileDirectory = "data/outbox"

    /// A configuration from its parts (tests, and callers that build one without a reader).
    public init(transport: Transport, from: Mailbox, appName: String, templates: MailTemplates) {
        self.transport = transport
        self.from = from
        self.appName = appName
        self.templates = templates
    }

    /// The transport to deliver with; `nil` for ``Transport/off``.
    public func makeTransport() -> (any MailTransport)? {
        switch transport {
        case .smtp(let settings): SMTPTransport(settings)
        case .file(let directory): FileTransport(directory: directory)
        case .off: nil
        }
    }
}
