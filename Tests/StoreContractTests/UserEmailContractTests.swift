import Foundation
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// What the email-code flows change on an account gives the same answers on SQLite and PostgreSQL: a verified
/// email and its source, a new address (never one another account holds), and a new password that revokes every
/// other session, seen at once by another store on the same database.
@Suite(.timeLimit(.minutes(1))) struct UserEmailContractTests {
    @Test(
        "marks an email verified by its source, keeping the first time; an unknown id is not found",
        arguments: Backend.allCases)
    func markVerified(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let verified = try await store.users.markEmailVerified(
                userID: ada.id, source: .emailCode, now: Fixture.at(5))
            #expect(verified.emailVerifiedAt == Fixture.at(5) && verified.emailVerifiedBy == .emailCode)
            #expect(try await store.users.find(byID: ada.id) == verified)
            let again = try await store.users.markEmailVerified(userID: ada.id, source: .operator, now: Fixture.at(9))
            #expect(again.emailVerifiedAt == Fixture.at(5) && again.emailVerifiedBy == .operator)
            var unchanged = again
            unchanged.emailVerifiedAt = ada.emailVerifiedAt
            unchanged.emailVerifiedBy = nil
            #expect(unchanged == ada, "nothing else changed")
            let anonymous = try await store.users.create(
                id: "u-anon", email: nil, passwordHash: nil, role: "user", tenantID: nil, emailVerifiedAt: nil,
                now: Fixture.epoch)
            #expect(
                try await store.users.markEmailVerified(userID: "u-anon", source: .emailCode, now: Fixture.at(1))
                    == anonymous)
            await #expect(throws: StoreError.notFound) {
                try await store.users.markEmailVerified(userID: "missing", source: .emailCode, now: Fixture.at(1))
            }
        }
    }

    @Test(
        "changes the email, verified now by a code; a taken address or unknown id is refused",
        arguments: Backend.allCases)
    func changeEmail(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await store.users.create(
                id: "u-ada", email: "ada@example.com", passwordHash: Fixture.hash, role: "user", tenantID: nil,
                emailVerifiedAt: Fixture.at(1), now: Fixture.epoch)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            await #expect(throws: StoreError.emailTaken) {
                try await store.users.changeEmail(userID: ada.id, to: "bob@example.com", now: Fixture.at(5))
            }
            #expect(try await store.users.find(byID: ada.id) == ada)
            #expect(try await store.users.find(byID: bob.id) == bob)
            let moved = try await store.users.changeEmail(userID: ada.id, to: "ada@new.example", now: Fixture.at(7))
            #expect(moved.email == "ada@new.example")
            #expect(moved.emailVerifiedAt == Fixture.at(7) && moved.emailVerifiedBy == .emailCode)
            #expect(moved.passwordHash == ada.passwordHash && moved.createdAt == ada.createdAt)
            #expect(try await store.users.find(byEmail: "ada@new.example") == moved)
            #expect(try await store.users.find(byEmail: "ada@example.com") == nil)
            // The old address is free again.
            _ = try await Fixture.user(store, email: "ada@example.com")
            await #expect(throws: StoreError.notFound) {
                try await store.users.changeEmail(userID: "missing", to: "new@example.com", now: Fixture.at(8))
            }
        }
    }

    @Test(
        "a new password revokes every other live session of the user and keeps the caller's",
        arguments: Backend.allCases)
    func replacePassword(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            let first = try await Fixture.session(store, ada)
            let kept = try await Fixture.session(store, ada, at: 1)
            let third = try await Fixture.session(store, ada, at: 2)
            let old = try await Fixture.session(store, ada, at: 3)
            _ = try await store.sessions.revoke(sessionID: old.id, userID: nil, now: Fixture.at(4))
            let bobs = try await Fixture.session(store, bob)
            #expect(
                try await store.users.replacePassword(
                    userID: ada.id, hash: "$argon2id$new", keeping: kept.id, now: Fixture.at(10)) == 2)
            #expect(try await store.users.find(byID: ada.id)?.passwordHash == "$argon2id$new")
            #expect(try await store.sessions.status(sessionID: first.id)?.revokedAt == Fixture.at(10))
            #expect(try await store.sessions.status(sessionID: third.id)?.revokedAt == Fixture.at(10))
            #expect(try await store.sessions.status(sessionID: old.id)?.revokedAt == Fixture.at(4), "revoked before")
            #expect(try await store.sessions.status(sessionID: kept.id)?.revokedAt == nil)
            #expect(try await store.sessions.status(sessionID: bobs.id)?.revokedAt == nil)
            let live = try await store.sessions.liveSessions(userID: ada.id, now: Fixture.at(11), limit: 10, after: nil)
            #expect(live.map(\.id) == [kept.id])
            let rotation = try await store.sessions.rotate(
                sessionID: kept.id, presentedCounter: 0, now: Fixture.at(12), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
            guard case .rotated = rotation else {
                Issue.record("the kept session no longer refreshes: \(rotation)")
                return
            }
            // Without a session to keep (a reset): every one, the kept one too.
            #expect(
                try await store.users.replacePassword(
                    userID: ada.id, hash: "$argon2id$newer", keeping: nil, now: Fixture.at(20))
                    == 1)
            #expect(try await store.sessions.status(sessionID: kept.id)?.revokedAt == Fixture.at(20))
            #expect(try await store.sessions.status(sessionID: bobs.id)?.revokedAt == nil)
            await #expect(throws: StoreError.notFound) {
                try await store.users.replacePassword(userID: "missing", hash: "h", keeping: nil, now: Fixture.at(21))
            }
        }
    }

    @Test(
        "a new password's revocations end another store's kept session status at once",
        arguments: Backend.allCases)
    func revocationSeenElsewhere(backend: Backend) async throws {
        try await backend.withTwo { first, second in
            if let postgres = second as? PostgresStore {
                #expect(await Self.eventually { postgres.changes.changeStamp() != nil }, "B listens")
            }
            let ada = try await Fixture.user(first)
            let other = try await Fixture.session(first, ada)
            let kept = try await Fixture.session(first, ada, at: 1)
            #expect(try await second.sessions.status(sessionID: other.id)?.revokedAt == nil)
            if case .mustWait = try second.sessions.immediateStatus(sessionID: other.id) {
                Issue.record("B kept no answer")
            }
            #expect(
                try await first.users.replacePassword(
                    userID: ada.id, hash: "$argon2id$new", keeping: kept.id, now: Fixture.at(10)) == 1)
            // SQLite: the shared commit counter moved before the call returned; PostgreSQL: the notification
            // reaches B's listener within its poll (100 ms), far inside B's 60-second cache lifetime.
            #expect(
                await Self.eventually {
                    (try? await second.sessions.status(sessionID: other.id)?.revokedAt) == Fixture.at(10)
                })
            #expect(try await second.sessions.status(sessionID: kept.id)?.revokedAt == nil)
        }
    }

    /// Whether `condition` holds within 2 seconds (checked every 5 ms): a bound for an asynchronous notification.
    static func eventually(_ condition: () async -> Bool) async -> Bool {
        let started = ContinuousClock.now
        while started.duration(to: .now) < .seconds(2) {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}
