import Foundation
import MailTesting
import Testing
import TokenClientTesting

/// `tokenvend email send-test`, the built binary, against MailTesting's SMTP sink and the file transport.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct EmailSendTestCommandTests {
    /// Runs `tokenvend email send-test` with `email` as the whole configuration's `email` section.
    private func sendTest(to address: String, email: [String: Any], in folder: TemporaryFolder) async throws
        -> KeyCommandTests.Run
    {
        let file = folder.url.appending(path: "tokenvend.json")
        let configuration: [String: Any] = [
            "database": ["path": folder.url.appending(path: "data/t.sqlite").path], "email": email,
        ]
        try JSONSerialization.data(withJSONObject: configuration).write(to: file)
        return try await KeyCommandTests.tokenvend(
            ["email", "send-test", "--to", address, "--config", file.path], in: folder.url)
    }

    @Test("send-test delivers one message over SMTP to the sink and prints where it went")
    func smtp() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try await SMTPSink.start()
        defer { sink.stop() }
        let run = try await sendTest(
            to: "Ops <ops@example.com>",
            email: ["smtp": ["url": sink.url], "from": "Example <no-reply@example.com>", "appName": "Example"],
            in: folder)
        #expect(run.status == 0)
        #expect(run.output == "sent to ops@example.com via \(sink.url)\n")
        let mail = try await sink.nextMessage()
        #expect(mail.rcptTos == ["ops@example.com"])
        #expect(mail.mailFrom == "no-reply@example.com")
        #expect(mail.subject == "Example: test message")
        #expect(mail.text?.contains("tokenvend email send-test") == true)
    }

    @Test("a refusal of the SMTP server exits 1 with its reason; a dead port exits 1 too")
    func refused() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try await SMTPSink.start(.init(reject: 550))
        defer { sink.stop() }
        let run = try await sendTest(to: "ops@example.com", email: ["smtp": ["url": sink.url]], in: folder)
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("tokenvend email send-test: not sent ("))
        #expect(run.error.contains("550"))
        let port = sink.port
        sink.stop()
        let down = try await sendTest(
            to: "ops@example.com", email: ["smtp": ["url": "smtp://127.0.0.1:\(port)"]], in: folder)
        #expect(down.status == 1)
        #expect(down.error.contains("not sent"))
    }

    @Test("the file transport writes one .eml file and prints its path; off exits 1; a bad --to exits 2")
    func fileOffAndUsage() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let outbox = folder.url.appending(path: "outbox").path
        let run = try await sendTest(
            to: "ops@example.com", email: ["transport": "file", "fileDirectory": outbox], in: folder)
        #expect(run.status == 0)
        let path = try #require(run.output.split(separator: " ").last).trimmingCharacters(in: .newlines)
        #expect(path.hasPrefix(outbox) && path.hasSuffix(".eml"))
        let raw = try String(contentsOfFile: path, encoding: .utf8)
        #expect(raw.contains("To: ops@example.com"))
        let off = try await sendTest(to: "ops@example.com", email: ["transport": "off"], in: folder)
        #expect(off.status == 1)
        #expect(off.error.contains("email.transport is off"))
        let injected = try await sendTest(
            to: "ops@example.com\r\nBcc: x@example.com", email: ["transport": "file", "fileDirectory": outbox],
            in: folder)
        #expect(injected.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox).count == 1)
    }
}
