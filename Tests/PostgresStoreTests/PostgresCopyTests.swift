import Foundation
import SQLiteStore
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// `db copy`: a SQLite deployment's users and live sessions into PostgreSQL.
@Suite(.timeLimit(.minutes(1))) struct PostgresCopyTests {
    @Test("copies users, customer ids and live sessions; idempotent; refuses a non-empty target unless replacing")
    func copy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-copy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("t.sqlite").path))
        defer { sqlite.close() }
        let now = Date()
        let ada = try await sqlite.users.create(
            id: "u-ada", email: "ada@example.com", passwordHash: Fixture.hash, role: "admin", tenantID: "t1",
            emailVerifiedAt: now, now: now)
        let bob = try await sqlite.users.create(
            id: "u-bob", email: "bob@example.com", passwordHash: Fixture.hash, role: "user", tenantID: nil,
            emailVerifiedAt: nil, now: now)
        try await sqlite.users.setCustomerID(email: try #require(ada.email), key: "crm", value: "c-1")
        let live = try await sqlite.sessions.create(
            userID: ada.id, userAgent: "ua", ip: "::1", now: now, refreshTTL: .seconds(3600),
            maxLifetime: .seconds(86_400), maxPerUser: 10, dpopThumbprint: nil
        ).session
        guard
            case .rotated(_, let counter) = try await sqlite.sessions.rotate(
                sessionID: live.id, presentedCounter: 0, now: now, grace: .seconds(10), refreshTTL: .seconds(3600))
        else {
            Issue.record("setup rotation failed")
            return
        }
        let dead = try await sqlite.sessions.create(
            userID: bob.id, userAgent: nil, ip: nil, now: now, refreshTTL: .seconds(3600),
            maxLifetime: .seconds(86_400), maxPerUser: 10, dpopThumbprint: nil
        ).session
        _ = try await sqlite.sessions.revoke(sessionID: dead.id, userID: nil, now: now)
        let snapshot = try await sqlite.snapshot()
        #expect(
            snapshot.users.count == 2 && snapshot.customerIDs.count == 1 && snapshot.sessions.map(\.id) == [live.id])

        let database = try await PostgresTestDatabase.make()
        let target = try await database.open(clock: .database)
        defer { target.close() }
        let report = try await target.copy(from: snapshot, replacing: false)
        #expect(report == CopyReport(users: 2, customerIDs: 1, sessions: 1))
        let again = try await target.copy(from: snapshot, replacing: false)
        #expect(again == report)
        #expect(try await target.users.list() == (try await sqlite.users.list()))
        #expect(
            try await target.sessions.find(sessionID: live.id) == (try await sqlite.sessions.find(sessionID: live.id)))
        #expect(try await target.sessions.find(sessionID: dead.id) == nil)
        #expect(
            try await target.users.customerIDs(userID: ada.id, emailAsRegistered: true)
                == ["crm": "c-1", "registered": ada.email])
        #expect(try await database.query("SELECT count(*) FROM users") == [["2"]])

        // The refresh token issued on SQLite keeps rotating: its counter continues.
        let outcome = try await target.sessions.rotate(
            sessionID: live.id, presentedCounter: counter, now: Date(), grace: .seconds(10),
            refreshTTL: .seconds(3600))
        guard case .rotated(_, let next) = outcome else {
            Issue.record("expected .rotated after the copy, got \(outcome)")
            return
        }
        #expect(next == counter + 1)

        // A target holding other users is refused, unless replacing.
        _ = try await target.users.create(email: "carol@example.com", passwordHash: Fixture.hash)
        await #expect(throws: StoreError.constraint(.other)) { try await target.copy(from: snapshot, replacing: false) }
        #expect(try await target.users.find(byEmail: "carol@example.com") != nil)
        #expect(try await target.copy(from: snapshot, replacing: true) == report)
        #expect(try await target.users.find(byEmail: "carol@example.com") == nil)
        #expect(try await target.users.list().count == 2)
        await database.remove()
    }

    @Test("copying again keeps the stronger state: a logout on SQLite reaches PostgreSQL, a counter is never lowered")
    func copyAgainKeepsStrongerState() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-copy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("t.sqlite").path))
        defer { sqlite.close() }
        let now = Date()
        let ada = try await sqlite.users.create(
            id: "u-ada", email: "ada@example.com", passwordHash: Fixture.hash, role: "user", tenantID: nil,
            emailVerifiedAt: nil, now: now)
        func session() async throws -> Session {
            try await sqlite.sessions.create(
                userID: ada.id, userAgent: "ua", ip: "::1", now: now, refreshTTL: .seconds(3600),
                maxLifetime: .seconds(86_400), maxPerUser: 10, dpopThumbprint: nil
            ).session
        }
        let loggedOut = try await session()
        let rotated = try await session()
        let database = try await PostgresTestDatabase.make()
        let target = try await database.open(clock: .database)
        defer { target.close() }
        _ = try await target.copy(from: try await sqlite.snapshot(), replacing: false)
        #expect(try await target.sessions.find(sessionID: loggedOut.id)?.revokedAt == nil)

        // A logout on SQLite after the first copy.
        _ = try await sqlite.sessions.revoke(sessionID: loggedOut.id, userID: nil, now: now)
        // A refresh on PostgreSQL after the first copy.
        let outcome = try await target.sessions.rotate(
            sessionID: rotated.id, presentedCounter: 0, now: Date(), grace: .seconds(10), refreshTTL: .seconds(7200))
        guard case .rotated(let afterRotation, let counter) = outcome else {
            Issue.record("expected .rotated, got \(outcome)")
            return
        }
        #expect(counter == 1)
        let again = try await target.copy(from: try await sqlite.snapshot(), replacing: false)
        #expect(again.sessions == 1)
        #expect(try await target.sessions.find(sessionID: loggedOut.id)?.revokedAt != nil)
        let kept = try #require(try await target.sessions.find(sessionID: rotated.id))
        #expect(kept.counter == 1)
        #expect(kept.refreshExpiresAt == afterRotation.refreshExpiresAt && kept.rotatedAt == afterRotation.rotatedAt)
        // The token rotated on PostgreSQL still works there; the one before it is not revived.
        guard
            case .rotated(_, 2) = try await target.sessions.rotate(
                sessionID: rotated.id, presentedCounter: 1, now: Date(), grace: .zero, refreshTTL: .seconds(3600))
        else {
            Issue.record("the counter rotated on PostgreSQL was lost")
            return
        }

        // A user disabled on PostgreSQL stays disabled when copied again.
        _ = try await target.users.disable(email: try #require(ada.email), now: Date())
        _ = try await target.copy(from: try await sqlite.snapshot(), replacing: false)
        #expect(try await target.users.find(byID: ada.id)?.disabledAt != nil)
        await database.remove()
    }

    @Test("a copy of 20,000 users and sessions succeeds with a 500 ms query timeout")
    func largeCopy() async throws {
        let now = Date()
        let users = (0..<20_000).map { index in
            User(
                id: "u-\(index)", email: "user\(index)@example.com", passwordHash: Fixture.hash, role: "user",
                tenantID: nil, disabledAt: nil, createdAt: now, emailVerifiedAt: nil)
        }
        let sessions = users.map { user in
            Session(
                id: "s-" + user.id, userID: user.id, createdAt: now, lastUsedAt: now,
                refreshExpiresAt: now.addingTimeInterval(3600), expiresAt: now.addingTimeInterval(86_400),
                revokedAt: nil, userAgent: "ua", ip: "::1", counter: 3, rotatedAt: now)
        }
        let snapshot = StoreSnapshot(users: users, customerIDs: [], sessions: sessions)
        let database = try await PostgresTestDatabase.make()
        let target = try await database.open(clock: .database, queryTimeout: .milliseconds(500))
        defer { target.close() }
        #expect(
            try await target.copy(from: snapshot, replacing: false)
                == CopyReport(users: 20_000, customerIDs: 0, sessions: 20_000))
        #expect(try await database.query("SELECT count(*), sum(counter) FROM sessions") == [["20000", "60000"]])
        await database.remove()
    }
}
