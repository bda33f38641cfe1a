/// A rendered message: subject, plain text and optional HTML, before the headers are added.
public struct MailContent: Sendable, Equatable {
    /// The subject, one line.
    public var subject: String
    /// The plain-text part; lines end with `\n`.
    public var text: String
    /// The HTML part (sent as `multipart/alternative` with the text), or `nil` for plain text only.
    public var html: String?

    /// Content as given.
    public init(subject: String, text: String, html: String? = nil) {
        self.subject = subject
        self.text = text
        self.html = html
    }
}
