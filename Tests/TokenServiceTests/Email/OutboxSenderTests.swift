import Foundation
import InMemoryLogging
import Logging
import Mail
import Prometheus
import SQLiteStore
import Store
import Synchronization
import Testing

@testable import TokenService

/// The outbox sender against a real SQLite store and a scripted transport, on a hand-moved clock: one pass at a
/// time (`deliverDue()`), so backoff and the 24-hour limit are tested without waiting.
@Suite struct OutboxSenderTests {
    static let secret = Array(String(repeating: "outbox-secret-", count: 5).utf8)

    @Test("a queued row is opened from its seal, delivered once and deleted; the log never holds the body")
    func deliversOnce() async throws {
        let fixture = try Fixture(script: [])
        try await fixture.queue("Your code is 482913.")
        #expect(await fixture.sender.deliverDue() == 1)
        #expect(fixture.transport.delivered == ["Your code is 482913."])
        #expect(try await fixture.store.email.listOutbox().isEmpty)
        #expect(await fixture.sender.deliverDue() == 0)
        #expect(fixture.metrics.messageValue("password_reset", .sent) == 1)
        let logged = fixture.logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(logged.contains("email sent"))
        #expect(!logged.contains("482913"))
    }

    @Test("a transient failure is retried after 1 s, then 2 s; a permanent one gives the row up at once")
    func retriesThenGivesUp() async throws {
        let fixture = try Fixture(script: [.transient, .transient, .success])
        try await fixture.queue("retry me")
        #expect(await fixture.sender.deliverDue() == 1)
        #expect(await fixture.sender.deliverDue() == 0, "not due before its backoff")
        fixture.clock.advance(by: 1.5)
        #expect(await fixture.sender.deliverDue() == 1)
        fixture.clock.advance(by: 1.5)
        #expect(await fixture.sender.deliverDue() == 0, "the second backoff is 2 s")
        fixture.clock.advance(by: 1)
        #expect(await fixture.sender.deliverDue() == 1)
        #expect(fixture.transport.delivered.count == 3)
        #expect(try await fixture.store.email.listOutbox().isEmpty)
        #expect(fixture.metrics.messageValue("password_reset", .retried) == 2)
        #expect(fixture.metrics.messageValue("password_reset", .sent) == 1)

        let refused = try Fixture(script: [.permanent])
        try await refused.queue("refused")
        #expect(await refused.sender.deliverDue() == 1)
        let rows = try await refused.store.email.listOutbox()
        #expect(rows.count == 1)
        #expect(rows.first?.failedAt != nil)
        #expect(rows.first?.lastError?.contains("550") == true)
        #expect(refused.metrics.messageValue("password_reset", .failed) == 1)
    }

    @Test("a row failing for 24 hours is given up")
    func givesUpAfterADay() async throws {
        let fixture = try Fixture(script: Array(repeating: .transient, count: 200))
        try await fixture.queue("never arrives")
        // Every 601 s: past the longest backoff, so each round is one try.
        for _ in 0..<200 {
            _ = await fixture.sender.deliverDue()
            guard let row = try await fixture.store.email.listOutbox().first, row.failedAt == nil else { break }
            fixture.clock.advance(by: 601)
        }
        let row = try #require(try await fixture.store.email.listOutbox().first)
        #expect(row.failedAt != nil)
        #expect(row.lastError?.hasPrefix("failing for 24 hours") == true)
        #expect(fixture.clock.elapsed >= 86_400)
        #expect(fixture.clock.elapsed < 86_400 + 602)
    }

    @Test("a body sealed with another secret is given up with a reason, never sent")
    func unopenableBody() async throws {
        let fixture = try Fixture(script: [])
        let other = try EmailCodeKeys(secret: Array(String(repeating: "another-secret-", count: 5).utf8))
        try await fixture.queue("sealed elsewhere", keys: other)
        #expect(await fixture.sender.deliverDue() == 1)
        #expect(fixture.transport.delivered.isEmpty)
        let row = try #require(try await fixture.store.email.listOutbox().first)
        #expect(row.lastError?.contains("does not open") == true)
    }

    @Test("the backoff doubles from 1 s and stops at 10 minutes")
    func backoff() throws {
        let fixture = try Fixture(script: [])
        let delays = (1...14).map { fixture.sender.backoff(afterAttempt: $0).components.seconds }
        #expect(delays == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600, 600, 600])
    }

    @Test("started, the sender delivers a row as soon as it is woken, and stops cleanly")
    func loopWakes() async throws {
        let fixture = try Fixture(script: [])
        fixture.sender.start()
        try await fixture.queue("wake up")
        fixture.sender.wake()
        var deliveries = fixture.transport.deliveries.makeAsyncIterator()
        #expect(await deliveries.next() == "wake up")
        await fixture.sender.stop()
        fixture.sender.start()  // after stop: nothing
    }
}

/// A hand-moved wall clock.
final class SenderTestClock: Sendable {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let offset = Mutex<Double>(0)
    var now: Date { start.addingTimeInterval(offset.withLock { $0 }) }
    var elapsed: Double { offset.withLock { $0 } }
    func advance(by seconds: Double) { offset.withLock { $0 += seconds } }
}

/// A transport that answers from a script (then succeeds) and records every message it was given.
final class ScriptedTransport: MailTransport {
    enum Step: Sendable { case success, transient, permanent }
    private let script: Mutex<[Step]>
    private let log = Mutex<[String]>([])
    let deliveries: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init(_ script: [Step]) {
        self.script = Mutex(script)
        (deliveries, continuation) = AsyncStream.makeStream()
    }

    var delivered: [String] { log.withLock { $0 } }

    func deliver(_ message: [UInt8], from: String, to: String) async throws(MailDeliveryError) -> MailReceipt {
        let text = String(decoding: message, as: UTF8.self)
        log.withLock { $0.append(text) }
        continuation.yield(text)
        let step = script.withLock { $0.isEmpty ? Step.success : $0.removeFirst() }
        switch step {
        case .success: return MailReceipt(location: nil)
        case .transient: throw MailDeliveryError(kind: .transient, reason: "connection refused")
        case .permanent: throw MailDeliveryError(kind: .permanent, reason: "550 no such user")
        }
    }
}

/// A SQLite store in a temporary folder, a sender on it with a scripted transport and a hand-moved clock.
struct Fixture {
    let folder: URL
    let store: SQLiteStore
    let clock = SenderTestClock()
    let transport: ScriptedTransport
    let keys: EmailCodeKeys
    let metrics: EmailMetrics
    let logs = InMemoryLogHandler()
    let sender: OutboxSender

    init(script: [ScriptedTransport.Step]) throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try SQLiteStore(configuration: .init(path: folder.appending(path: "db.sqlite").path))
        transport = ScriptedTransport(script)
        keys = try EmailCodeKeys(secret: OutboxSenderTests.secret)
        metrics = EmailMetrics(registry: PrometheusCollectorRegistry())
        let handler = logs
        let clock = self.clock
        sender = OutboxSender(
            store: store.email, transport: transport, keys: keys, envelopeFrom: "no-reply@example.com",
            metrics: metrics, logger: Logger(label: "test.outbox", factory: { _ in handler }),
            now: { clock.now })
    }

    /// Queues `text` sealed with `keys` (default: the sender's).
    func queue(_ text: String, keys: EmailCodeKeys? = nil) async throws {
        let id = UUID().uuidString.lowercased()
        let body = try (keys ?? self.keys).seal(Array(text.utf8), id: id)
        try await store.email.enqueue(
            OutboxMessage(id: id, kind: "password_reset", recipient: "a@example.com", body: body, createdAt: clock.now))
    }
}
