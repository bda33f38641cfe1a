import CCurl
import Foundation
import MailTesting
import Testing

@testable import Mail

/// Real SMTP through libcurl against scripts/smtp_sink.py (aiosmtpd) on loopback.
@Suite(.tags(.integration), .timeLimit(.minutes(1))) struct SMTPTransportTests {
    static let code = "042917"

    static func message(html: Bool = false) throws -> (MailMessage, MailContent) {
        var content = try MailTemplates.english.render(
            .signIn, MailValues(code: code, minutes: 10, appName: "Acme Café", email: "ada@example.org"))
        if html { content.html = "<p>Your code: <b>\(code)</b> — Zoë</p>\n" }
        let message = try MailMessage(
            from: Mailbox("Acme <no-reply@acme.example>"), to: Mailbox("Ada <ada@example.org>"), content: content,
            date: Date(), messageID: "m1")
        return (message, content)
    }

    static func deliver(_ settings: SMTPSettings, html: Bool = false) async throws -> MailContent {
        let (message, content) = try message(html: html)
        _ = try await SMTPTransport(settings).deliver(
            message.encoded(), from: "no-reply@acme.example", to: "ada@example.org")
        return content
    }

    static func failure(_ settings: SMTPSettings) async throws -> MailDeliveryError? {
        let (message, _) = try message()
        do {
            _ = try await SMTPTransport(settings).deliver(
                message.encoded(), from: "no-reply@acme.example", to: "ada@example.org")
            return nil
        } catch {
            return error
        }
    }

    @Test("a message goes through plain SMTP on loopback, and the sink decodes exactly the rendered text")
    func plainLoopback() async throws {
        let sink = try await SMTPSink.start()
        let content = try await Self.deliver(SMTPSettings(url: sink.url), html: true)
        let received = try await sink.nextMessage()
        #expect(received.mailFrom == "no-reply@acme.example")
        #expect(received.rcptTos == ["ada@example.org"])
        #expect(received.subject == content.subject)
        #expect(received.text == content.text)
        #expect(received.html == content.html)
        #expect(received.raw.contains("Message-ID: <m1@acme.example>\r\n"))
    }

    @Test("STARTTLS with the sink's certificate as caFile delivers; without it the TLS failure is transient")
    func startTLS() async throws {
        let certificate = try TestCertificate()
        let sink = try await SMTPSink.start(.init(starttls: certificate))
        let content = try await Self.deliver(SMTPSettings(url: sink.url, caFile: certificate.certificatePath))
        #expect(try await sink.nextMessage().text == content.text)
        let untrusted = try #require(try await Self.failure(SMTPSettings(url: sink.url)))
        #expect(untrusted.kind == .transient)
        #expect(untrusted.reason == "TLS handshake or certificate check failed")
        // localhost matches the certificate's name too.
        let byName = "smtp://localhost:\(sink.port)"
        _ = try await Self.deliver(SMTPSettings(url: byName, caFile: certificate.certificatePath))
        #expect(try await sink.nextMessage().subject == content.subject)
    }

    @Test("STARTTLS required (a smtp:// host that is not loopback) refuses a server without it, uses one with it")
    func startTLSRequired() async throws {
        let (message, content) = try Self.message()
        let plain = try await SMTPSink.start()
        // The URL a non-loopback smtp:// host gets, pointed at the loopback sink.
        func required(_ port: Int) -> SMTPURL { SMTPURL(scheme: .smtp, host: "127.0.0.1", port: port, tls: .required) }
        let refused = await #expect(throws: MailDeliveryError.self) {
            try await SMTPExchange.send(
                message.encoded(), from: "a@b.c", to: "d@e.f", url: required(plain.port),
                settings: SMTPSettings(url: plain.url))
        }
        #expect(refused?.kind == .transient)
        #expect(refused?.reason == "the SMTP server does not offer STARTTLS")
        let certificate = try TestCertificate()
        let secure = try await SMTPSink.start(.init(starttls: certificate))
        try await SMTPExchange.send(
            message.encoded(), from: "a@b.c", to: "d@e.f", url: required(secure.port),
            settings: SMTPSettings(url: secure.url, caFile: certificate.certificatePath))
        #expect(try await secure.nextMessage().text == content.text)
    }

    @Test("smtps:// speaks TLS from the first byte")
    func implicitTLS() async throws {
        let certificate = try TestCertificate()
        let sink = try await SMTPSink.start(.init(tls: certificate))
        #expect(sink.url.hasPrefix("smtps://"))
        let content = try await Self.deliver(SMTPSettings(url: sink.url, caFile: certificate.certificatePath))
        #expect(try await sink.nextMessage().text == content.text)
    }

    @Test("AUTH with the right credentials delivers; wrong ones are a transient login failure")
    func authentication() async throws {
        let certificate = try TestCertificate()
        let sink = try await SMTPSink.start(.init(starttls: certificate, auth: ("mailer", "s3cret")))
        let settings = SMTPSettings(
            url: sink.url, username: "mailer", password: "s3cret", caFile: certificate.certificatePath)
        let content = try await Self.deliver(settings)
        #expect(try await sink.nextMessage().text == content.text)
        var wrong = settings
        wrong.password = "guess"
        let refused = try #require(try await Self.failure(wrong))
        #expect(refused.kind == .transient)
        #expect(refused.reason == "SMTP login refused (535): check the credentials")
        #expect(!refused.reason.contains("guess"))
        var anonymous = settings
        anonymous.username = nil
        let required = try #require(try await Self.failure(anonymous))
        // 530 "authentication required" is a configuration fault too: messages wait while the operator sets a login.
        #expect(required.kind == .transient)
        #expect(required.reason == "SMTP server requires a login (530): set email.smtp.username")
    }

    @Test("a 5xx reply to the message is permanent, a 4xx transient; the reason holds no code or text")
    func rejections() async throws {
        let permanent = try await SMTPSink.start(.init(reject: 550))
        let refused = try #require(try await Self.failure(SMTPSettings(url: permanent.url)))
        #expect(refused.kind == .permanent)
        #expect(refused.reason == "SMTP server refused the message (550)")
        #expect(!refused.reason.contains(Self.code))
        let transient = try await SMTPSink.start(.init(reject: 451))
        let deferred = try #require(try await Self.failure(SMTPSettings(url: transient.url)))
        #expect(deferred.kind == .transient)
        #expect(deferred.reason == "SMTP server deferred the message (451)")
    }

    @Test("nothing listening is a transient connection refused; the sink up again on the port delivers")
    func downThenUp() async throws {
        let sink = try await SMTPSink.start()
        let port = sink.port
        sink.stop()
        let down = try #require(try await Self.failure(SMTPSettings(url: "smtp://127.0.0.1:\(port)")))
        #expect(down.kind == .transient)
        #expect(down.reason == "connection refused")
        try await sink.start(port: port)
        #expect(sink.port == port)
        let content = try await Self.deliver(SMTPSettings(url: "smtp://127.0.0.1:\(port)"))
        #expect(try await sink.nextMessage().text == content.text)
    }

    @Test("a server slower than the message timeout is a transient timeout, answered at the deadline")
    func timeout() async throws {
        let sink = try await SMTPSink.start(.init(delay: 5))
        let start = ContinuousClock.now
        let slow = try #require(try await Self.failure(SMTPSettings(url: sink.url, messageTimeout: .milliseconds(700))))
        let elapsed = ContinuousClock.now - start
        #expect(slow.kind == .transient)
        #expect(slow.reason == "timed out")
        #expect(elapsed >= .milliseconds(700) && elapsed < .seconds(3))
    }

    @Test("cancelling the caller answers it at once, long before the server would")
    func cancellation() async throws {
        let sink = try await SMTPSink.start(.init(delay: 20))
        let start = ContinuousClock.now
        let task = Task { try await Self.failure(SMTPSettings(url: sink.url)) }
        task.cancel()
        let failure = try #require(try await task.value)
        #expect(failure.kind == .transient)
        #expect(failure.reason == "cancelled")
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("a name that does not resolve is transient")
    func unresolvable() async throws {
        // `.invalid` never resolves (RFC 6761); a resolver that does not answer within the connect timeout makes
        // it a timeout instead, transient too.
        let failure = try #require(
            try await Self.failure(SMTPSettings(url: "smtp://nonexistent.invalid:2525", connectTimeout: .seconds(5))))
        #expect(failure.kind == .transient)
        #expect(["host unreachable", "timed out"].contains(failure.reason))
    }

    @Test("an envelope address with CR or LF is refused before any connection")
    func envelopeInjection() async throws {
        let transport = SMTPTransport(SMTPSettings(url: "smtp://127.0.0.1:1"))
        let error = await #expect(throws: MailDeliveryError.self) {
            try await transport.deliver([], from: "a@b.c", to: "d@e.f>\r\nRCPT TO:<x@y.z")
        }
        #expect(error?.kind == .permanent)
        #expect(error?.reason == "envelope address refused")
    }

    @Test(
        "libcurl results and reply codes map to kinds",
        arguments: [
            (
                CURLE_WEIRD_SERVER_REPLY, 550, 0, MailDeliveryError.Kind.permanent,
                "SMTP server refused the message (550)"
            ),
            (CURLE_SEND_ERROR, 553, 0, .permanent, "SMTP server refused the message (553)"),
            (CURLE_SEND_ERROR, 452, 0, .transient, "SMTP server deferred the message (452)"),
            (CURLE_LOGIN_DENIED, 535, 0, .transient, "SMTP login refused (535): check the credentials"),
            (CURLE_SEND_ERROR, 530, 0, .transient, "SMTP server requires a login (530): set email.smtp.username"),
            (CURLE_USE_SSL_FAILED, 250, 0, .transient, "the SMTP server does not offer STARTTLS"),
            (CURLE_COULDNT_CONNECT, 0, Int(ECONNREFUSED), .transient, "connection refused"),
            (CURLE_COULDNT_RESOLVE_HOST, 0, 0, .transient, "host unreachable"),
            (CURLE_OPERATION_TIMEDOUT, 250, 0, .transient, "timed out"),
            (CURLE_PEER_FAILED_VERIFICATION, 220, 0, .transient, "TLS handshake or certificate check failed"),
            (CURLE_WEIRD_SERVER_REPLY, 0, 0, .transient, "unexpected SMTP reply"),
            (CURLE_GOT_NOTHING, 0, 0, .transient, "connection lost before the message was accepted"),
        ])
    func classification(code: CURLcode, reply: Int, osErrno: Int, kind: MailDeliveryError.Kind, reason: String) {
        let error = SMTPExchange.error(for: code, reply: reply, osErrno: osErrno)
        #expect(error.kind == kind)
        #expect(error.reason == reason)
    }
}

extension Tag {
    @Tag static var integration: Self
}
