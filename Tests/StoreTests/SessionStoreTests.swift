import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// What only the SQLite `SessionStore` shows: its blocking forms, `touch` and `purge(expiredBefore:)`, and the
/// rotation cases the contract suite (`StoreContractTests.SessionContractTests`) does not pin on a stored row.
@Suite struct SessionStoreTests {
    static let ttl = Duration.seconds(100)
    static let cap = Duration.seconds(1000)
    static let grace = Duration.seconds(10)

    /// A database with one user and one fresh session at `Fixture.epoch`.
    static func withSession(_ body: (SessionStore, Session, Database) throws -> Void) throws {
        try TemporaryDatabase.with { database, _ in
            let user = try Fixture.user(database)
            let sessions = SessionStore(database: database)
            let session = try sessions.create(
                userID: user.id, userAgent: "ua", ip: "::1", now: Fixture.epoch, refreshTTL: ttl, maxLifetime: cap)
            try body(sessions, session, database)
        }
    }

    static func at(_ seconds: Double) -> Date { Fixture.epoch.addingTimeInterval(seconds) }

    @Test("the parent counter within the grace window converges on the live counter without changes")
    func convergesInGrace() throws {
        try Self.withSession { sessions, session, _ in
            _ = try sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: Self.at(1), grace: Self.grace, refreshTTL: Self.ttl)
            let before = try sessions.find(sessionID: session.id)
            let outcome = try sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: Self.at(11), grace: Self.grace, refreshTTL: Self.ttl)
            guard case .converged(let live, let counter) = outcome else {
                Issue.record("expected .converged, got \(outcome)")
                return
            }
            #expect(counter == 1 && live == before)
            #expect(try sessions.find(sessionID: session.id) == before)
        }
    }

    @Test("an older ancestor revokes the session even inside the grace window")
    func grandparentRevokes() throws {
        try Self.withSession { sessions, session, _ in
            for counter: Int64 in 0...1 {
                _ = try sessions.rotate(
                    sessionID: session.id, presentedCounter: counter, now: Self.at(1), grace: Self.grace,
                    refreshTTL: Self.ttl)
            }
            let outcome = try sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: Self.at(2), grace: Self.grace, refreshTTL: Self.ttl)
            #expect(outcome == .reuseDetected(sessionID: session.id, userID: session.userID))
        }
    }

    @Test("future counters, unknown, revoked, expired and capped sessions and disabled users are invalid")
    func invalidCases() throws {
        try Self.withSession { sessions, session, database in
            func rotate(_ counter: Int64, at seconds: Double, id: String? = nil) throws -> RotationOutcome {
                try sessions.rotate(
                    sessionID: id ?? session.id, presentedCounter: counter, now: Self.at(seconds), grace: Self.grace,
                    refreshTTL: Self.ttl)
            }
            #expect(try rotate(1, at: 1) == .invalid)
            #expect(try rotate(-1, at: 1) == .invalid)
            #expect(try rotate(0, at: 1, id: "no-such-session") == .invalid)
            #expect(try rotate(0, at: 100) == .invalid)  // refresh expired
            #expect(try sessions.find(sessionID: session.id)?.revokedAt == nil)  // invalid changes nothing
            // Slide up to the cap, then pass it.
            var counter: Int64 = 0
            for step in stride(from: 90.0, to: 1000, by: 90) {
                if case .rotated(_, let next) = try rotate(counter, at: step) { counter = next }
            }
            #expect(try rotate(counter, at: 1000) == .invalid)
            let other = try sessions.create(
                userID: session.userID, userAgent: nil, ip: nil, now: Fixture.epoch, refreshTTL: Self.ttl,
                maxLifetime: Self.cap)
            try UserStore(database: database).disable(email: "ada@example.com", now: Self.at(2))
            #expect(try rotate(0, at: 3, id: other.id) == .invalid)
        }
    }

    @Test("revoke, revokeOthers and revokeAll are idempotent and report counts")
    func revocation() throws {
        try Self.withSession { sessions, first, database in
            func make() throws -> Session {
                try sessions.create(
                    userID: first.userID, userAgent: nil, ip: nil, now: Fixture.epoch, refreshTTL: Self.ttl,
                    maxLifetime: Self.cap)
            }
            let second = try make()
            _ = try make()
            let stranger = try Fixture.user(database, email: "eve@example.com")
            #expect(try sessions.revoke(sessionID: second.id, userID: stranger.id) == 0)
            #expect(try sessions.revoke(sessionID: second.id, userID: first.userID, now: Self.at(1)) == 1)
            #expect(try sessions.revoke(sessionID: second.id) == 0)
            #expect(try sessions.liveSessions(userID: first.userID, now: Self.at(1)).count == 2)
            #expect(try sessions.revokeOthers(userID: first.userID, except: first.id, now: Self.at(2)) == 1)
            #expect(try sessions.revokeOthers(userID: first.userID, except: first.id) == 0)
            #expect(try sessions.liveSessions(userID: first.userID, now: Self.at(2)).map(\.id) == [first.id])
            #expect(try sessions.revokeAll(userID: first.userID, now: Self.at(3)) == 1)
            #expect(try sessions.revokeAll(userID: first.userID) == 0)
            let status = try #require(try sessions.status(sessionID: first.id))
            #expect(status.revokedAt == Self.at(3) && !status.isLive(at: Self.at(3)))
            #expect(try sessions.status(sessionID: "unknown") == nil)
        }
    }

    @Test("status reports a live session and its owner")
    func status() throws {
        try Self.withSession { sessions, session, _ in
            let status = try #require(try sessions.status(sessionID: session.id))
            #expect(status.userID == session.userID && status.isLive(at: Self.at(1)))
            #expect(!status.isLive(at: Self.at(1000)))
            try sessions.touch(sessionID: session.id, now: Self.at(5))
            #expect(try sessions.find(sessionID: session.id)?.lastUsedAt == Self.at(5))
            #expect(try sessions.purge(expiredBefore: Self.at(1001)) == 1)
            #expect(try sessions.status(sessionID: session.id) == nil)
        }
    }
}
