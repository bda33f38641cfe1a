import Foundation
import Mail
import Testing

@Suite struct MailMessageTests {
    @Test("a plain-text message is written byte for byte")
    func plainBytes() throws {
        let message = try MailMessage(
            from: Mailbox("tokenvend <no-reply@example.com>"), to: Mailbox("ada@example.org"),
            content: MailContent(subject: "Your code", text: "Code: 123456\n"),
            date: Date(timeIntervalSince1970: 1_795_832_700), messageID: "abc123")
        let expected =
            "Date: Sun, 28 Nov 2026 02:25:00 +0000\r\n"
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
}
