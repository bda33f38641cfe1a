import Foundation
import MailTesting
import PostgresTesting
import Testing
import TokenClientTesting

/// Two `tokenvend serve` processes on one PostgreSQL database (`scripts/with-postgres.sh`), each with its outbox
/// sender: rows are claimed with `FOR UPDATE SKIP LOCKED`, so every message leaves once.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct EmailTwoInstanceTests {
    @Test("messages queued on both instances of one PostgreSQL database each arrive exactly once")
    func eachMessageOnce() async throws {
        let fixture = try EmailServerFixture(postgres: true)
        let sink = try await SMTPSink.start()
        defer { sink.stop() }
        let configuration = try fixture.configuration(smtpPort: sink.port)
        let a = try await ServeProcess.start(configuration, name: "A", folder: fixture.folder.url)
        defer { a.stop(with: SIGKILL) }
        let b = try await ServeProcess.start(configuration, name: "B", folder: fixture.folder.url)
        defer { b.stop(with: SIGKILL) }
        let clients = [ServeClient(port: a.port), ServeClient(port: b.port)]
        let addresses = (0..<12).map { "pair-\($0)@example.com" }
        for (index, address) in addresses.enumerated() {
            try await clients[index % 2].register(address, EmailServerFixture.password)
        }
        // Both instances queue, interleaved, so both senders find rows of both.
        for (index, address) in addresses.enumerated() {
            #expect(try await clients[index % 2].post("/auth/password/reset", ["email": address]).status == 202)
        }
        var received: [String: Int] = [:]
        for _ in addresses {
            let mail = try await sink.nextMessage()
            for recipient in mail.rcptTos { received[recipient, default: 0] += 1 }
        }
        #expect(received == Dictionary(uniqueKeysWithValues: addresses.map { ($0, 1) }))
        // Exactly once: the two senders' deliveries add up to the messages, and the shared outbox is empty, as
        // `tokenvend email outbox` (the operator's view of the database) shows it. (Not the pending gauges: each
        // instance refreshes its own only after a pass, up to 30 s apart.)
        let environment = ["TOKENVEND_DATABASE_URL": try TestPostgres.url(database: try #require(fixture.database))]
        let deadline = ContinuousClock.now + .seconds(60)
        var total = 0.0
        while ContinuousClock.now < deadline {
            total = 0
            for client in clients {
                total +=
                    try await EmailServerFixture.metric(
                        "tokenvend_email_messages_total", ["kind": "password_reset", "result": "sent"], at: client) ?? 0
            }
            if total >= Double(addresses.count) {
                let outbox = try await KeyCommandTests.tokenvend(
                    ["email", "outbox"], environment: environment, in: fixture.folder.url)
                #expect(outbox.status == 0)
                if outbox.output.isEmpty { break }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(total == Double(addresses.count))
    }
}
