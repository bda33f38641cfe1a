import Foundation
import HTTPServerTesting
import IdentityProviders
import InMemoryLogging
import JWT
import Logging
import Prometheus
import SQLiteStore
import Store
import Testing

@testable import TokenService

/// The outbox's revocation job against a real SQLite store and a scripted Apple, on a hand-moved clock: one pass
/// at a time (`deliverDue()`), so the backoff and the 7-day limit are tested without waiting.
@Suite(.timeLimit(.minutes(1)))
struct RevocationOutboxJobTests {
    /// A store in a temporary folder, a sender running revocations against `upstream`, a hand-moved clock.
    struct Fixture {
        let store: SQLiteStore
        let clock = SenderTestClock()
        let metrics = AppleMetrics(registry: PrometheusCollectorRegistry())
        let logs = InMemoryLogHandler()
        let seal: ProviderTokenSeal
        let sender: OutboxSender

        init(upstream: FakeUpstream, emailOnly: Bool = false) throws {
            let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-revoke-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            store = try SQLiteStore(configuration: .init(path: folder.appending(path: "db.sqlite").path))
            seal = try ProviderTokenSeal(key: TokenEncryptionKey(bytes: Array(repeating: 7, count: 32)))
            let client = AppleRESTClient(
                configuration: try AppleRESTConfiguration(
                    teamId: "TEAM123456", keyId: "KEY1234567", clientId: "com.example.app",
                    privateKeyPEM: try JWTKey.generate(kid: "KEY1234567", algorithm: .es256).privateKeyPEM(),
                    tokenURL: upstream.url.absoluteString,
                    revokeURL: upstream.url.absoluteString))
            let apple = AppleTokens(clients: ["apple": client], seal: seal, store: store.identities, metrics: metrics)
            let handler = logs
            let clock = self.clock
            let jobs: [any OutboxJob] =
                emailOnly
                ? [
                    EmailOutboxJob(
                        transport: ScriptedTransport([]), keys: try EmailCodeKeys(secret: OutboxSenderTests.secret),
                        envelopeFrom: "no-reply@example.com",
                        metrics: EmailMetrics(registry: PrometheusCollectorRegistry()))
                ]
                : [RevocationOutboxJob(apple: apple)]
            sender = OutboxSender(
                store: store.email, jobs: jobs, metrics: EmailMetrics(registry: PrometheusCollectorRegistry()),
                logger: Logger(label: "test.revoke", factory: { _ in handler }), now: { clock.now })
        }

        /// Queues the revocation of `token` for the provider `apple`, as `deleteUser` does.
        func queue(_ token: String) async throws {
            try await store.email.enqueue(
                OutboxMessage(
                    id: UUID().uuidString.lowercased(), kind: OutboxJobKind.providerTokenRevocation, recipient: "apple",
                    body: try seal.seal(token, provider: "apple"), createdAt: clock.now))
        }

        var logged: String { logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n") }
    }

    @Test("revoked: the row is deleted after one call that carried the token; the log never holds it")
    func revoked() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "")) { upstream in
            let fixture = try Fixture(upstream: upstream)
            try await fixture.queue("rt-secret-1")
            #expect(await fixture.sender.deliverDue() == 1)
            #expect(try await fixture.store.email.listOutbox().isEmpty)
            let request = try #require(upstream.requests.first)
            let form = String(decoding: request.body, as: UTF8.self)
            #expect(form.contains("token=rt-secret-1"))
            #expect(form.contains("token_type_hint=refresh_token"))
            #expect(form.contains("client_id=com.example.app"))
            #expect(fixture.metrics.tokenRequests(.revoke, .success) == 1)
            #expect(!fixture.logged.contains("rt-secret-1"))
        }
    }

    @Test("5xx is retried after 1 s, 2 s, … and given up 7 days after the row was queued")
    func givesUpAfterSevenDays() async throws {
        try await withFakeUpstream(always: .init(status: 503, body: "")) { upstream in
            let fixture = try Fixture(upstream: upstream)
            try await fixture.queue("rt-2")
            // The email job's backoff (OutboxSenderTests): 1 s, then doubling.
            #expect(await fixture.sender.deliverDue() == 1)
            #expect(await fixture.sender.deliverDue() == 0, "not due before its backoff")
            fixture.clock.advance(by: 1.5)
            #expect(await fixture.sender.deliverDue() == 1)
            #expect(try await fixture.store.email.listOutbox().first?.failedAt == nil)
            fixture.clock.advance(by: 7 * 86_400)
            #expect(await fixture.sender.deliverDue() == 1)
            let row = try #require(try await fixture.store.email.listOutbox().first)
            #expect(row.failedAt != nil)
            #expect(row.lastError?.contains("7 days") == true)
            #expect(fixture.metrics.tokenRequests(.revoke, .serverError) == 3)
            #expect(fixture.metrics.tokenRequests(.revoke, .givenUp) == 1)
        }
    }

    @Test("a 4xx answer ends the job at once: given up, logged and counted")
    func refusedEnds() async throws {
        try await withFakeUpstream(always: .init(status: 400, body: #"{"error":"invalid_grant"}"#)) { upstream in
            let fixture = try Fixture(upstream: upstream)
            try await fixture.queue("rt-3")
            #expect(await fixture.sender.deliverDue() == 1)
            #expect(try await fixture.store.email.listOutbox().first?.failedAt != nil)
            fixture.clock.advance(by: 3_600)
            #expect(await fixture.sender.deliverDue() == 0)
            #expect(upstream.callCount == 1)
            #expect(fixture.metrics.tokenRequests(.revoke, .refused) == 1)
            #expect(fixture.logged.contains("provider token revocation refused; given up"))
        }
    }

    @Test("a sender without the revocation job keeps the row for later (10 minutes), never dropping it")
    func unknownKindKept() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "")) { upstream in
            let fixture = try Fixture(upstream: upstream, emailOnly: true)
            try await fixture.queue("rt-4")
            #expect(await fixture.sender.deliverDue() == 1)
            let row = try #require(try await fixture.store.email.listOutbox().first)
            #expect(row.failedAt == nil)
            #expect(row.nextAttemptAt.timeIntervalSince(fixture.clock.now) >= 599)
            #expect(upstream.callCount == 0)
        }
    }
}
