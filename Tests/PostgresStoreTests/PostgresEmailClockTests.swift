import Foundation
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// With `clock: .database` the database's clock decides a code's expiry and an outbox row's due time, lease and
/// failure time: the instance's `now` is ignored, so instances whose clocks differ agree.
@Suite(.timeLimit(.minutes(1))) struct PostgresEmailClockTests {
    @Test("a code's expiry and an outbox row's due time and lease follow the database's clock")
    func databaseClock() async throws {
        try await PostgresTestDatabase.with { database in
            let store = try await database.open(clock: .database)
            defer { store.close() }
            let issued = Date(storeMilliseconds: Date().storeMilliseconds)
            let live = EmailCode(
                purpose: .passwordReset, subject: "ada@example.com", hash: "h-live", userID: nil,
                email: "ada@example.com", createdAt: issued, expiresAt: issued.addingTimeInterval(600))
            let dead = EmailCode(
                purpose: .signIn, subject: "ada@example.com", hash: "h-dead", userID: nil, email: "ada@example.com",
                createdAt: issued.addingTimeInterval(-700), expiresAt: issued.addingTimeInterval(-100))
            let message = OutboxMessage(
                id: "m-1", kind: "password_reset", recipient: "ada@example.com", body: [7], createdAt: issued)
            try await store.email.issueCode(live, message: message)
            try await store.email.issueCode(
                dead,
                message: OutboxMessage(
                    id: "m-2", kind: "sign_in", recipient: "ada@example.com", body: [8], createdAt: issued))
            // The caller's clocks are far off; the database's decides.
            let future = issued.addingTimeInterval(86_400)
            let past = issued.addingTimeInterval(-86_400)
            #expect(
                try await store.email.redeemCode(
                    purpose: .passwordReset, subject: "ada@example.com", hash: "h-live", maxAttempts: 5, now: future)
                    == .accepted(live))
            #expect(
                try await store.email.redeemCode(
                    purpose: .signIn, subject: "ada@example.com", hash: "h-dead", maxAttempts: 5, now: past)
                    == .missing)
            let claimed = try await store.email.claimOutbox(owner: "one", limit: 10, lease: .seconds(60), now: past)
            #expect(claimed.map(\.id) == ["m-1", "m-2"])
            let held = try #require(try await store.email.listOutbox().first?.claimedUntil)
            #expect(abs(held.timeIntervalSince(issued) - 60) < 30)
            try await store.email.failOutbox(id: "m-1", lastError: "550", now: past)
            let failed = try #require(try await store.email.listOutbox().first?.failedAt)
            #expect(abs(failed.timeIntervalSince(issued)) < 30)
        }
    }
}
