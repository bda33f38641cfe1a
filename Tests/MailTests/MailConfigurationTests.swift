import Configuration
import Testing

@testable import Mail

@Suite struct MailConfigurationTests {
    static func configuration(
        _ values: [AbsoluteConfigKey: ConfigValue], password: String? = nil,
        templates: MailTemplates = .english
    ) throws(MailConfigurationError) -> MailConfiguration {
        let reader = ConfigReader(provider: InMemoryProvider(values: values)).scoped(to: "email")
        return try MailConfiguration(reader: reader, smtpPassword: password, templates: templates)
    }

    static func refusal(_ values: [AbsoluteConfigKey: ConfigValue], password: String? = nil) -> MailConfigurationError?
    {
        do {
            _ = try configuration(values, password: password)
            return nil
        } catch {
            return error
        }
    }

    @Test("with nothing set, messages go to files in data/outbox from tokenvend <no-reply@localhost>")
    func defaults() throws {
        let mail = try Self.configuration([:])
        #expect(mail.transport.directory == "data/outbox")
        #expect(mail.from == (try Mailbox("tokenvend <no-reply@localhost>")))
        #expect(mail.appName == "tokenvend")
        #expect(mail.makeTransport() is FileTransport)
    }

    @Test("email.smtp.url alone selects SMTP, with the credentials, CA file and default timeouts")
    func smtp() throws {
        let mail = try Self.configuration(
            [
                "email.smtp.url": "smtps://smtp.example.com:465", "email.smtp.username": "mailer",
                "email.smtp.caFile": "/etc/ca.pem", "email.from": "Acme <no-reply@acme.example>",
                "email.appName": "Acme",
            ], password: "s3cret")
        let settings = try #require(mail.transport.settings)
        #expect(settings.url == "smtps://smtp.example.com:465")
        #expect(settings.username == "mailer" && settings.password == "s3cret" && settings.caFile == "/etc/ca.pem")
        #expect(!settings.allowInsecure)
        #expect(settings.connectTimeout == .seconds(10) && settings.messageTimeout == .seconds(60))
        #expect(mail.from.displayName == "Acme" && mail.appName == "Acme")
        #expect(mail.makeTransport() is SMTPTransport)
    }

    @Test("email.smtp.allowInsecure is read")
    func allowInsecure() throws {
        let mail = try Self.configuration([
            "email.smtp.url": "smtp://mail.example.com", "email.smtp.allowInsecure": true,
        ])
        #expect(try #require(mail.transport.settings).allowInsecure)
    }

    @Test("transport off makes no transport; transport file overrides a URL")
    func offAndFile() throws {
        #expect(try Self.configuration(["email.transport": "off"]).makeTransport() == nil)
        let file = try Self.configuration(
            ["email.transport": "file", "email.smtp.url": "smtp://localhost", "email.fileDirectory": "/tmp/out"])
        #expect(file.transport.directory == "/tmp/out")
    }

    @Test(
        "values that cannot work refuse startup with the key and the reason",
        arguments: [
            (["email.transport": "sendmail"], "email.transport", "expected smtp, file or off"),
            (
                ["email.transport": "smtp"], "email.smtp.url",
                "required when email.transport is smtp (smtp:// or smtps://)"
            ),
            (
                ["email.smtp.url": "http://mail.example.com"], "email.smtp.url",
                "expected smtp://host[:port] (STARTTLS) or smtps://host[:port] (TLS)"
            ),
            (
                ["email.smtp.url": "mail.example.com:25"], "email.smtp.url",
                "expected smtp://host[:port] (STARTTLS) or smtps://host[:port] (TLS)"
            ),
            (
                ["email.smtp.url": "smtp://user:pass@mail.example.com"], "email.smtp.url",
                "no credentials in the URL: set email.smtp.username and email.smtp.password"
            ),
            (
                ["email.smtp.url": "smtp://mail.example.com/ehlo.example"], "email.smtp.url",
                "no path, query or fragment: expected smtp://host[:port]"
            ),
            (
                ["email.smtp.url": "smtps://mail.example.com?x=1"], "email.smtp.url",
                "no path, query or fragment: expected smtps://host[:port]"
            ),
            (
                ["email.smtp.url": "smtp://mail.example.com:0"], "email.smtp.url",
                "not a host[:port] (a name, an IPv4 address or [IPv6], port 1–65535)"
            ),
            (
                ["email.smtp.url": "smtp://mail example.com"], "email.smtp.url",
                "not a host[:port] (a name, an IPv4 address or [IPv6], port 1–65535)"
            ),
            (
                ["email.smtp.url": "smtp://mail.example.com\r\nRCPT TO:<x@y.z>"], "email.smtp.url",
                "CR, LF or NUL refused"
            ),
            (["email.from": "no-reply@example.com\r\nBcc: eve@example.org"], "email.from", "CR, LF or NUL refused"),
            (["email.from": "not an address"], "email.from", "expected \"Name <addr@host>\" or addr@host"),
            (["email.appName": "Acme\nBcc: x"], "email.appName", "CR, LF or NUL refused"),
            (
                ["email.appName": "Acme 1234567"], "email.appName",
                "a run of 6 or more digits: the code must be the only one in a message"
            ),
            (
                ["email.smtp.url": "smtp://localhost", "email.smtp.username": "a\nb"], "email.smtp.username",
                "CR, LF or NUL refused"
            ),
            (["email.fileDirectory": "data/\n"], "email.fileDirectory", "CR, LF or NUL refused"),
        ] as [([AbsoluteConfigKey: ConfigValue], String, String)])
    func refusals(values: [AbsoluteConfigKey: ConfigValue], path: String, reason: String) {
        #expect(Self.refusal(values) == MailConfigurationError(path: path, reason: reason))
    }

    @Test("a password needs a username, and may not hold CR or LF")
    func passwordRules() {
        #expect(
            Self.refusal(["email.smtp.url": "smtp://localhost"], password: "p")
                == MailConfigurationError(
                    path: "email.smtp.username", reason: "required when a password is set (AUTH needs both)"))
        #expect(
            Self.refusal(["email.smtp.url": "smtp://localhost", "email.smtp.username": "u"], password: "p\r\nQUIT")
                == MailConfigurationError(path: "email.smtp.password", reason: "CR, LF or NUL refused"))
    }

    @Test(
        "smtp:// requires STARTTLS except to a loopback host or with allowInsecure; smtps:// is TLS at once",
        arguments: [
            ("smtp://mail.example.com", false, SMTPURL.TLS.required),
            ("smtp://mail.example.com:587", true, .opportunistic),
            ("smtp://127.0.0.1:2525", false, .opportunistic), ("smtp://LOCALHOST", false, .opportunistic),
            ("smtp://[::1]:25", false, .opportunistic), ("smtp://127.0.0.1.example.com", false, .required),
            ("smtps://mail.example.com", false, .implicit), ("SMTPS://127.0.0.1:465/", false, .implicit),
        ])
    func tlsModes(url: String, allowInsecure: Bool, tls: SMTPURL.TLS) throws {
        #expect(try SMTPURL(url, allowInsecure: allowInsecure).tls == tls)
    }

    @Test("an invalid URL given to SMTPTransport directly fails each delivery as transient")
    func transportRefusesURL() async throws {
        let transport = SMTPTransport(SMTPSettings(url: "http://example.com"))
        let error = await #expect(throws: MailDeliveryError.self) {
            try await transport.deliver([], from: "a@b.c", to: "d@e.f")
        }
        #expect(error?.kind == .transient)
        #expect(error?.reason.hasPrefix("email.smtp.url refused") == true)
    }
}

extension MailConfiguration.Transport {
    /// The SMTP settings, when this is `.smtp`.
    var settings: SMTPSettings? {
        if case .smtp(let settings) = self { settings } else { nil }
    }

    /// The folder, when this is `.file`.
    var directory: String? {
        if case .file(let directory) = self { directory } else { nil }
    }
}
