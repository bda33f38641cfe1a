import Foundation
import Synchronization

/// scripts/smtp_sink.py (aiosmtpd) as a child process on 127.0.0.1: an SMTP server for tests that prints every
/// message it accepts, decoded by Python's `email` package.
///
/// ```swift
/// let sink = try await SMTPSink.start()
/// … deliver to sink.url …
/// let mail = try await sink.nextMessage()
/// sink.stop()                              // SMTP down
/// try await sink.start(port: sink.port)    // up again on the same port
/// ```
/// `start` returns once the sink printed its `PORT` line (an event, never a sleep); ``nextMessage(within:)``
/// awaits the next message line, its deadline a failure bound only. A missing aiosmtpd fails the start with the
/// command that installs it. The process is killed when the sink is released.
public final class SMTPSink: Sendable {
    /// The options of scripts/smtp_sink.py.
    public struct Options: Sendable {
        /// `--starttls CERT KEY`: offer STARTTLS and require it before MAIL.
        public var starttls: TestCertificate?
        /// `--tls CERT KEY`: TLS from the first byte (smtps).
        public var tls: TestCertificate?
        /// `--auth USER:PASS`: require AUTH with these credentials.
        public var auth: (user: String, password: String)?
        /// `--delay SECONDS`: wait before every reply, greeting included.
        public var delay: Double?
        /// `--reject CODE`: answer the end of DATA with CODE (and print nothing).
        public var reject: Int?

        /// Options; all off by default.
        public init(
            starttls: TestCertificate? = nil, tls: TestCertificate? = nil,
            auth: (user: String, password: String)? = nil, delay: Double? = nil, reject: Int? = nil
        ) {
            self.starttls = starttls
            self.tls = tls
            self.auth = auth
            self.delay = delay
            self.reject = reject
        }
    }

    /// Why the sink failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let options: Options
    private let process = ScriptProcess()

    private init(options: Options) {
        self.options = options
    }

    /// Starts a sink with `options` on a port the kernel picks (or `port`).
    public static func start(_ options: Options = Options(), port: Int = 0) async throws -> SMTPSink {
        let sink = SMTPSink(options: options)
        try await sink.start(port: port)
        return sink
    }

    /// The port it listens on (the last one, after ``stop()``).
    public var port: Int { process.port }

    /// `smtp://127.0.0.1:<port>`, or `smtps://` with ``Options/tls``.
    public var url: String { "\(options.tls == nil ? "smtp" : "smtps")://127.0.0.1:\(port)" }

    /// Starts the process again (after ``stop()``) on `port` (0: any), and waits for its `PORT` line.
    public func start(port: Int) async throws {
        try await process.start(Self.scriptPath, port: port, arguments: arguments())
    }

    /// Kills the process (SMTP down); the port stays known for ``start(port:)``.
    public func stop() {
        process.stop()
    }

    /// The next message the sink accepted.
    public func nextMessage(within deadline: Duration = .seconds(60)) async throws -> ReceivedMail {
        guard let lines = process.lines else { throw Failure(description: "the sink is stopped") }
        let line = try await lines.next(within: deadline, what: "a message")
        return try JSONDecoder().decode(ReceivedMail.self, from: Data(line.utf8))
    }

    private func arguments() -> [String] {
        var arguments: [String] = []
        if let starttls = options.starttls { arguments += ["--starttls", starttls.certificatePath, starttls.keyPath] }
        if let tls = options.tls { arguments += ["--tls", tls.certificatePath, tls.keyPath] }
        if let auth = options.auth { arguments += ["--auth", "\(auth.user):\(auth.password)"] }
        if let delay = options.delay { arguments += ["--delay", String(delay)] }
        if let reject = options.reject { arguments += ["--reject", String(reject)] }
        return arguments
    }

    /// scripts/smtp_sink.py, found from this file's path (Tests/MailTesting/ → the package root).
    static var scriptPath: String { ScriptProcess.scriptPath("smtp_sink.py", from: #filePath) }
}

/// One message as the sink printed it.
public struct ReceivedMail: Sendable, Decodable {
    /// The envelope sender.
    public var mailFrom: String
    /// The envelope recipients.
    public var rcptTos: [String]
    /// The `Subject` decoded (RFC 2047) by Python's `email` package.
    public var subject: String?
    /// The plain-text part, decoded.
    public var text: String?
    /// The HTML part, decoded.
    public var html: String?
    /// The message as received.
    public var raw: String
}
