import Foundation
import Testing

@testable import Mail

@Suite struct MailMessageTests {
    static let date = Date(timeIntervalSince1970: 1_795_832_700)

    static func message(
        from: String = "tokenvend <no-reply@example.com>", to: String = "ada@example.org", _ content: MailContent
    ) throws -> MailMessage {
        try MailMessage(from: Mailbox(from), to: Mailbox(to), content: content, date: date, messageID: "abc123")
    }

    @Test("a plain-text message is written byte for byte")
    func plainBytes() throws {
        let message = try Self.message(MailContent(subject: "Your code", text: "Code: 123456\n"))
        let expected =
            "Date: Sat, 28 Nov 2026 02:25:00 +0000\r\n"
            + "Message-ID: <abc123@example.com>\r\n"
            + "From: tokenvend <no-reply@example.com>\r\n"
            + "To: ada@example.org\r\n"
            + "Subject: Your code\r\n"
            + "MIME-Version: 1.0\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Transfer-Encoding: quoted-printable\r\n"
            + "\r\n"
            + "Code: 123456\r\n"
        #expect(String(decoding: message.encoded(), as: UTF8.self) == expected)
    }

    @Test("an HTML template makes multipart/alternative, written byte for byte")
    func multipartBytes() throws {
        let content = MailContent(subject: "Café", text: "Code: 123456\n", html: "<p>Code: <b>123456</b></p>\n")
        let message = try Self.message(from: "Zoë <z@example.com>", content)
        let expected =
            "Date: Sat, 28 Nov 2026 02:25:00 +0000\r\n"
            + "Message-ID: <abc123@example.com>\r\n"
            + "From: =?utf-8?B?Wm/Dqw==?= <z@example.com>\r\n"
            + "To: ada@example.org\r\n"
            + "Subject: =?utf-8?B?Q2Fmw6k=?=\r\n"
            + "MIME-Version: 1.0\r\n"
            + "Content-Type: multipart/alternative; boundary=\"=_tokenvend_alternative\"\r\n"
            + "\r\n"
            + "This is a MIME message: a plain-text part and an HTML part.\r\n"
            + "\r\n--=_tokenvend_alternative\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + "Code: 123456\r\n"
            + "\r\n--=_tokenvend_alternative\r\n"
            + "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + "<p>Code: <b>123456</b></p>\r\n"
            + "\r\n--=_tokenvend_alternative--\r\n"
        #expect(String(decoding: message.encoded(), as: UTF8.self) == expected)
    }

    @Test(
        "Python's email package reads back the headers and the exact text",
        arguments: [
            MailContent(subject: "Your code", text: "Code: 123456\n"),
            MailContent(subject: "Votre code d’accès — 🎉", text: "Bonjour Zoë,\n\nCode : 042917\n\nÀ bientôt.\n"),
            MailContent(subject: "=?utf-8?B?not-an-encoded-word?=", text: "a = b\n.dot\nFrom here\n"),
            MailContent(subject: "spaced  out  ", text: "trailing space \ntrailing tab\t\n\n\nend"),
            MailContent(
                subject: String(repeating: "word ", count: 60) + "end",
                text: String(repeating: "x", count: 3000) + "\n" + String(repeating: "é ", count: 800) + "\n"),
            MailContent(subject: String(repeating: "ж", count: 400), text: "line\n", html: "<p>ж &amp; é</p>\n"),
            MailContent(
                subject: String(repeating: "a", count: 1200), text: "\u{0}nul and \r bare CR\n",
                html: "<p>=_tokenvend_alternative</p>\n--=_tokenvend_alternative\n"),
        ])
    func pythonReadsBack(content: MailContent) throws {
        let message = try Self.message(
            from: "\"Ops, Team\" <ops@mail.example.com>", to: "Ada <ada@example.org>", content)
        let parsed = try PythonEmail.parse(message.encoded())
        #expect(parsed.defects == [])
        #expect(parsed.subject == content.subject)
        #expect(parsed.fromAddress == "ops@mail.example.com")
        #expect(parsed.fromName == "Ops, Team")
        #expect(parsed.toAddress == "ada@example.org")
        #expect(parsed.date == 1_795_832_700)
        #expect(parsed.messageID == "<abc123@mail.example.com>")
        let text = content.text.hasSuffix("\n") ? content.text : content.text + "\n"
        #expect(parsed.text == text)
        #expect(parsed.html == content.html)
        #expect(parsed.contentType == (content.html == nil ? "text/plain" : "multipart/alternative"))
        #expect(parsed.longestLine <= 998)
    }

    @Test("every line ends with CRLF and none passes 998 octets")
    func lineLimits() throws {
        let content = MailContent(
            subject: String(repeating: "ü", count: 2000), text: String(repeating: "9", count: 5000) + "\n",
            html: String(repeating: "<b>x</b>", count: 1000))
        let bytes = try Self.message(content).encoded()
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0A {
                #expect(index > 0 && bytes[index - 1] == 0x0D)
                lines.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
        #expect(current.isEmpty)
        #expect(lines.allSatisfy { $0.count <= 998 + 1 })
        #expect(lines.filter { !$0.isEmpty && $0.last == 0x0D }.allSatisfy { $0.count <= 79 })
    }

    @Test(
        "the Date header is RFC 5322 in UTC, as Python's email.utils writes it",
        arguments: [
            (0, "Thu, 01 Jan 1970 00:00:00 +0000"), (951_782_400, "Tue, 29 Feb 2000 00:00:00 +0000"),
            (4_107_542_399, "Sun, 28 Feb 2100 23:59:59 +0000"), (-1, "Wed, 31 Dec 1969 23:59:59 +0000"),
            (1_709_164_800.9, "Thu, 29 Feb 2024 00:00:00 +0000"),
        ])
    func dates(seconds: Double, expected: String) {
        #expect(MailDate.format(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test(
        "CR, LF or NUL in an address or display name is refused",
        arguments: [
            "ada@example.org\r\nBcc: eve@example.org", "Ada\n <ada@example.org>", "Ada <ada@example.org\r>",
            "A\u{0}da <ada@example.org>", "ada@example.org\n",
        ])
    func mailboxInjection(text: String) {
        #expect(throws: MailError.controlCharacter(field: "address")) { try Mailbox(text) }
    }

    @Test(
        "an address that is not addr@host is refused",
        arguments: [
            "", "ada", "ada@", "@example.org", "a@b@c", "ada@exa mple.org", "Ada <>", "Ada <ada@example.org",
            "ada..x@example.org", "\"quoted local\"@example.org", "ada@example..org", "adé@example.org",
            "ada@-bad_host.org",
        ])
    func invalidAddresses(text: String) {
        #expect(throws: MailError.invalidAddress(field: "address")) { try Mailbox(text) }
    }

    @Test("display names become atoms, a quoted string or encoded-words")
    func displayNames() throws {
        #expect(try Mailbox("ada@example.org").headerValue == "ada@example.org")
        #expect(try Mailbox("  Ada Lovelace <ada@example.org> ").headerValue == "Ada Lovelace <ada@example.org>")
        #expect(try Mailbox("\"Ada Lovelace\" <ada@example.org>").displayName == "Ada Lovelace")
        #expect(try Mailbox("Lovelace, Ada <ada@example.org>").headerValue == "\"Lovelace, Ada\" <ada@example.org>")
        #expect(try Mailbox("A \"B\" \\ C <a@b.c>").headerValue == "\"A \\\"B\\\" \\\\ C\" <a@b.c>")
        #expect(try Mailbox("Zoë <z@example.com>").headerValue == "=?utf-8?B?Wm/Dqw==?= <z@example.com>")
    }

    @Test("CR, LF or NUL in a subject is refused; a message id must be a dot-atom")
    func messageRefusals() throws {
        for subject in ["a\r\nBcc: eve@example.org", "a\nb", "a\rb", "a\u{0}b"] {
            #expect(throws: MailError.controlCharacter(field: "Subject")) {
                try Self.message(MailContent(subject: subject, text: "x\n"))
            }
        }
        for id in ["", "a@b", "a b", "a\r\nb", "<a>", "a..b"] {
            #expect(throws: MailError.invalidMessageID) {
                try MailMessage(
                    from: Mailbox("a@b.c"), to: Mailbox("d@e.f"), content: MailContent(subject: "s", text: "t"),
                    date: Self.date, messageID: id)
            }
        }
    }

    @Test("quoted-printable keeps lines at 76 characters and encodes '=' and a space before a line end")
    func quotedPrintable() {
        #expect(QuotedPrintable.encode("a=b \nc\t") == Array("a=3Db=20\r\nc=09".utf8))
        #expect(QuotedPrintable.encode("é") == Array("=C3=A9".utf8))
        let long = String(QuotedPrintable.encode(String(repeating: "é", count: 100)).map { Character(.init($0)) })
        #expect(long.split(separator: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(!long.contains("=_"))
    }
}
