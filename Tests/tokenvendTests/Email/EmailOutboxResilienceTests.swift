import Foundation
import MailTesting
import Testing
import TokenClientTesting
import TokenServiceTesting

/// The outbox against real processes: `tokenvend serve` as a child process, the SMTP sink of `MailTesting` on
/// loopback, on SQLite (and on PostgreSQL under `TOKENVEND_TEST_BACKEND=postgres`). Waits on events (the server's
/// listening line, the sink's messages); the one fixed wait is the 30-second outage itself.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct EmailOutboxResilienceTests {
    @Test("SMTP down for 30 s while resets are queued: the 202s come back fast and every message arrives once")
    func outageThenRecovery() async throws {
        let fixture = try EmailServerFixture()
        let sink = try await SMTPSink.start()
        let port = sink.port
        let server = try await ServeProcess.start(
            try fixture.configuration(smtpPort: port), name: "outage", folder: fixture.folder.url)
        defer { server.stop(with: SIGKILL) }
        let client = ServeClient(port: server.port)
        let addresses = (1...4).map { "outage-\($0)@example.com" }
        for address in addresses { try await client.register(address, EmailServerFixture.password) }

        sink.stop()
        for address in addresses {
            let answer = try await client.post("/auth/password/reset", ["email": address])
            #expect(answer.status == 202)
            // Nothing is sent inline: the answer does not wait for the mail server that is down.
            #expect(answer.duration < .seconds(1))
        }
        // The outage the issue names: the sender meets a closed port for 30 s.
        try await Task.sleep(for: .seconds(30))
        #expect(!server.logs.contains(#""email sent""#))
        try await sink.start(port: port)

        var received: [String: [String]] = [:]
        for _ in addresses {
            let mail = try await sink.nextMessage()
            for recipient in mail.rcptTos {
                received[recipient, default: []].append(EmailServerFixture.code(in: mail.text ?? "") ?? "none")
            }
        }
        #expect(Set(received.keys) == Set(addresses))
        #expect(received.values.allSatisfy { $0.count == 1 && $0[0] != "none" })
        // Exactly once: the sender counts four deliveries in all and nothing is left to send.
        try await waitForDrain(client, sent: addresses.count)
        // Each message carries a working code.
        let first = try #require(addresses.first)
        let code = try #require(received[first]?.first)
        let confirm = try await client.post(
            "/auth/password/reset/confirm", ["email": first, "code": code, "newPassword": "a fresh long passphrase"])
        #expect(confirm.status == 200)
    }

    @Test(
        "kill -9 right after a 202: the message arrives once a server runs again on the same store and port"
    )
    func killAfterAccepted() async throws {
        let fixture = try EmailServerFixture()
        let sink = try await SMTPSink.start()
        let port = sink.port
        // The mail server is down while the first process lives, so its message cannot leave before the kill.
        sink.stop()
        let configuration = try fixture.configuration(smtpPort: port)
        let first = try await ServeProcess.start(configuration, name: "first", folder: fixture.folder.url)
        let address = "killed@example.com"
        let client = ServeClient(port: first.port)
        try await client.register(address, EmailServerFixture.password)
        let accepted = try await client.post("/auth/password/reset", ["email": address])
        #expect(accepted.status == 202)
        first.stop(with: SIGKILL)
        #expect(!first.logs.contains(#""email sent""#))

        try await sink.start(port: port)
        // Restarted as the same instance (host and port, as a container restarted in place): it takes back the row
        // the killed process may still have held, and sends it at once rather than after the 90 s lease.
        let second = try await ServeProcess.start(
            configuration, name: "second", folder: fixture.folder.url, port: first.port)
        defer { second.stop(with: SIGKILL) }
        let mail = try await sink.nextMessage(within: .seconds(150))
        #expect(mail.rcptTos == [address])
        let code = try #require(EmailServerFixture.code(in: mail.text ?? ""))
        let confirm = try await ServeClient(port: second.port).post(
            "/auth/password/reset/confirm", ["email": address, "code": code, "newPassword": "a fresh long passphrase"])
        #expect(confirm.status == 200)
        try await waitForDrain(ServeClient(port: second.port), sent: 1)
    }

    @Test("a mail server taking 10 s per reply holds up no POST /auth/password/reset: all answer within 2 s")
    func slowMailServerLatency() async throws {
        let fixture = try EmailServerFixture()
        let sink = try await SMTPSink.start(.init(delay: 10))
        defer { sink.stop() }
        let server = try await ServeProcess.start(
            try fixture.configuration(smtpPort: sink.port, requestsPerMinute: 1_000_000), name: "slow",
            folder: fixture.folder.url)
        defer { server.stop(with: SIGKILL) }
        let client = ServeClient(port: server.port)
        let count = 200
        let addresses = (0..<count).map { "slow-\($0)@example.com" }
        try await Self.concurrently(addresses + ["warm-up@example.com"], width: 8) { address in
            try await client.register(address, EmailServerFixture.password)
        }
        // The first reset queues a message and wakes the sender, which then sits in the slow SMTP exchange (10 s
        // before the greeting alone) for the whole run.
        #expect(try await client.post("/auth/password/reset", ["email": "warm-up@example.com"]).status == 202)
        let durations = try await Self.concurrently(addresses, width: 8) { address in
            let answer = try await client.post("/auth/password/reset", ["email": address])
            #expect(answer.status == 202)
            return answer.duration
        }
        let sorted = durations.sorted()
        let p99 = sorted[Int((Double(count) * 0.99).rounded(.up)) - 1]
        let p50 = sorted[count / 2]
        print(
            "EmailOutboxResilienceTests: POST /auth/password/reset under a 10 s-per-reply SMTP server, "
                + "\(count) requests, 8 concurrent: p50 \(p50), p99 \(p99), max \(sorted[count - 1])")
        // No request waited for the mail server: the slowest answer is far below one of its 10 s replies. (The
        // p99 printed above is a measurement, not asserted: with the other test lanes on the same two cores it
        // crossed 50 ms once, at 50.9 ms, where the quiet machine gives about 3 ms at p50.)
        #expect(sorted[count - 1] < .seconds(2))
        // The mail server held the sender throughout: nothing was delivered while the requests ran.
        #expect(!server.logs.contains(#""email sent""#))
    }

    /// Waits until the server's sender reports nothing pending and `sent` password-reset deliveries in all (a
    /// poll of `/metrics` with a deadline: the sender counts after each pass).
    private func waitForDrain(_ client: ServeClient, sent: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        var pending: Double?
        var delivered: Double?
        repeat {
            pending = try await EmailServerFixture.metric("tokenvend_email_outbox_pending", at: client)
            delivered = try await EmailServerFixture.metric(
                "tokenvend_email_messages_total", ["kind": "password_reset", "result": "sent"], at: client)
            if pending == 0, delivered == Double(sent) { return }
            try await Task.sleep(for: .milliseconds(100))
        } while ContinuousClock.now < deadline
        Issue.record(
            "outbox not drained: pending \(String(describing: pending)), sent \(String(describing: delivered))")
    }

    /// Runs `body` for every element, at most `width` at a time; the results in the elements' order.
    static func concurrently<T: Sendable, R: Sendable>(
        _ elements: [T], width: Int, _ body: @escaping @Sendable (T) async throws -> R
    ) async throws -> [R] {
        try await withThrowingTaskGroup(of: (Int, R).self) { group in
            var results = [R?](repeating: nil, count: elements.count)
            var next = 0
            while next < min(width, elements.count) {
                let index = next
                group.addTask { (index, try await body(elements[index])) }
                next += 1
            }
            while let (index, result) = try await group.next() {
                results[index] = result
                if next < elements.count {
                    let index = next
                    group.addTask { (index, try await body(elements[index])) }
                    next += 1
                }
            }
            return results.compactMap { $0 }
        }
    }
}
