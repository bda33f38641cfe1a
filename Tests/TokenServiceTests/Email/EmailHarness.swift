import Foundation
import MailTesting
import Testing
import TokenServiceTesting

/// A test server whose email goes to an SMTP sink on loopback (aiosmtpd, a child process): every message the
/// server's outbox sender delivers is awaited with `nextMail()` (an event, never a sleep).
struct EmailHarness {
    let server: TestServer
    let sink: SMTPSink

    /// Starts a sink, then a server that sends to it with `environment` added; always stops both.
    static func run<T>(
        environment: [String: String] = [:], _ body: (EmailHarness) async throws -> T
    ) async throws -> T {
        let sink = try await SMTPSink.start()
        let server: TestServer
        do {
            server = try await TestServer(
                environment: TestServer.mailEnvironment(smtpPort: sink.port).merging(environment) {
                    _, new in new
                })
        } catch {
            sink.stop()
            throw error
        }
        do {
            let result = try await body(EmailHarness(server: server, sink: sink))
            await server.stop()
            sink.stop()
            return result
        } catch {
            await server.stop()
            sink.stop()
            throw error
        }
    }

    /// The next message the sink receives (a failure bound of 20 s, then the server's email log lines are shown).
    func nextMail() async throws -> ReceivedMail {
        do {
            return try await sink.nextMessage(within: .seconds(20))
        } catch {
            let lines = server.logs().split(separator: "\n").filter { $0.contains("email") }
            Issue.record("no message arrived; the server logged:\n\(lines.suffix(20).joined(separator: "\n"))")
            throw error
        }
    }

    /// The next message, which must go to `address`; returns its code (the only run of `length` digits of its
    /// plain-text part, and no longer run of digits).
    func nextCode(to address: String, length: Int = 6) async throws -> String {
        let mail = try await nextMail()
        #expect(mail.rcptTos == [address])
        return try Self.code(in: mail.text ?? "", length: length)
    }

    /// The only run of exactly `length` digits in `text`.
    static func code(in text: String, length: Int = 6) throws -> String {
        var runs: [String] = []
        var current = ""
        for character in text + " " {
            if character.isASCII, character.isNumber {
                current.append(character)
            } else {
                if !current.isEmpty { runs.append(current) }
                current = ""
            }
        }
        let codes = runs.filter { $0.count == length }
        #expect(codes.count == 1, "runs of \(length) digits: \(codes.count)")
        #expect(!runs.contains { $0.count > length }, "a longer run of digits")
        return try #require(codes.first)
    }

    /// `POST path` with a JSON body and optional headers.
    func post(_ path: String, _ json: String? = nil, headers: [String: String] = [:]) async throws
        -> TestResponse
    {
        try await server.request("POST", path, headers: headers, json: json)
    }
}
