#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One RFC 5322 message, checked when made and written by ``encoded()``.
///
/// Headers, in this order: `Date` (RFC 5322 §3.3, UTC), `Message-ID` (`<id@domain of From>`), `From`, `To`,
/// `Subject` (RFC 2047 encoded-words when not ASCII), `MIME-Version: 1.0`, then either a single
/// `text/plain; charset=utf-8` part or `multipart/alternative` with the text and the HTML. Bodies are
/// quoted-printable, so no line passes 76 characters and no header line passes 998 octets; every line ends
/// with CRLF. A part without a final line break gets one (each part, and the message, ends with CRLF).
///
/// ```swift
/// let message = try MailMessage(
///     from: Mailbox("tokenvend <no-reply@example.com>"), to: Mailbox("ada@example.com"),
///     content: templates.render(.signIn, values), date: Date(), messageID: outboxRowID)
/// let bytes = message.encoded()
/// ```
public struct MailMessage: Sendable {
    /// The sender (`From`).
    public let from: Mailbox
    /// The recipient (`To`).
    public let to: Mailbox
    /// Subject, text and HTML.
    public let content: MailContent
    /// The `Date` header's time (whole seconds, written in UTC).
    public let date: Date
    /// The left part of the `Message-ID`.
    public let messageID: String

    /// The boundary of `multipart/alternative`. Fixed, and safe: it starts with `=_`, which quoted-printable
    /// bodies never contain (their `=` is always `=XX` or a soft break).
    static let boundary = "=_tokenvend_alternative"

    /// A message; `messageID` is the left part of the `Message-ID` (a random value such as the outbox row's
    /// UUID), whose right part is the domain of `from`.
    ///
    /// - Throws: ``MailError/controlCharacter(field:)`` for CR, LF or NUL in the subject;
    ///   ``MailError/invalidMessageID`` when `messageID` is not a dot-atom (`@` included).
    public init(from: Mailbox, to: Mailbox, content: MailContent, date: Date, messageID: String) throws(MailError) {
        guard !HeaderText.hasControlCharacter(content.subject) else { throw .controlCharacter(field: "Subject") }
        guard HeaderText.isDotAtom(messageID), messageID.utf8.count <= 200 else { throw .invalidMessageID }
        self.from = from
        self.to = to
        self.content = content
        self.date = date
        self.messageID = messageID
    }

    /// The message as sent: headers and body, CRLF line ends, UTF-8.
    public func encoded() -> [UInt8] {
        var head = [
            "Date: " + MailDate.format(date),
            "Message-ID: <\(messageID)@\(from.domain)>",
            "From: " + from.headerValue,
            "To: " + to.headerValue,
            "Subject: " + HeaderText.unstructured(content.subject, field: "Subject"),
            "MIME-Version: 1.0",
        ]
        var body: [UInt8] = []
        if let html = content.html {
            head.append("Content-Type: multipart/alternative; boundary=\"\(Self.boundary)\"")
            body += Array("This is a MIME message: a plain-text part and an HTML part.\r\n".utf8)
            for (subtype, text) in [("plain", content.text), ("html", html)] {
                body += Array("\r\n--\(Self.boundary)\r\n".utf8)
                body += Array(Self.partHeaders(subtype).joined(separator: "\r\n").utf8) + [0x0D, 0x0A, 0x0D, 0x0A]
                body += Self.encodedText(text)
            }
            body += Array("\r\n--\(Self.boundary)--\r\n".utf8)
        } else {
            head += Self.partHeaders("plain")
            body = Self.encodedText(content.text)
        }
        return Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
    }

    private static func partHeaders(_ subtype: String) -> [String] {
        ["Content-Type: text/\(subtype); charset=utf-8", "Content-Transfer-Encoding: quoted-printable"]
    }

    /// The text quoted-printable, ending with CRLF (a final `\n` is added when missing).
    private static func encodedText(_ text: String) -> [UInt8] {
        QuotedPrintable.encode(text.hasSuffix("\n") ? text : text + "\n")
    }
}
