import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

@Suite struct SessionHousekeepingTests {
    static func at(_ seconds: Double) -> Date { Fixture.epoch.addingTimeInterval(seconds) }

    static func count(_ database: Database) throws -> Int64 {
        try database.read { (connection: Connection) throws(StoreError) in
            try connection.queryOne("SELECT count(*) FROM sessions")?.int64(0) ?? -1
        }
    }

    @Test("a login beyond the cap revokes the least recently used live sessions, never the new one")
    func capPerUser() throws {
        try TemporaryDatabase.with { database, _ in
            let user = try Fixture.user(database)
            let other = try Fixture.user(database, email: "bob@example.com")
            let sessions = SessionStore(database: database)
            func login(_ userID: String, at seconds: Double) throws -> (session: Session, revoked: Int) {
                try sessions.create(
                    userID: userID, userAgent: nil, ip: nil, now: Self.at(seconds), refreshTTL: .seconds(100),
                    maxLifetime: .seconds(1000), maxPerUser: 3)
            }
            let first = try login(user.id, at: 1).session
            let second = try login(user.id, at: 2).session
            _ = try login(other.id, at: 2)
            let third = try login(user.id, at: 3).session
            // The first session was used last (a rotation at 4 s), so the second is now the least recent.
            _ = try sessions.rotate(
                sessionID: first.id, presentedCounter: 0, now: Self.at(4), grace: .zero, refreshTTL: .seconds(100))
            let fourth = try login(user.id, at: 5)
            #expect(fourth.revoked == 1)
            #expect(try sessions.find(sessionID: second.id)?.revokedAt == Self.at(5))
            #expect(
                Set(try sessions.liveSessions(userID: user.id, now: Self.at(5)).map(\.id))
                    == [first.id, third.id, fourth.session.id])
            #expect(try sessions.liveSessions(userID: other.id, now: Self.at(5)).count == 1)
            // Already-ended sessions do not count toward the cap: at 150 s every earlier one has expired.
            #expect(try login(user.id, at: 150).revoked == 0)
            // A cap of 1 keeps only the new session, even when an older one has the same last-used time.
            let same = try login(user.id, at: 150).session
            let capped = try sessions.create(
                userID: user.id, userAgent: nil, ip: nil, now: Self.at(150), refreshTTL: .seconds(100),
                maxLifetime: .seconds(1000), maxPerUser: 1)
            #expect(capped.revoked == 2)
            #expect(try sessions.liveSessions(userID: user.id, now: Self.at(150)).map(\.id) == [capped.session.id])
            #expect(try sessions.find(sessionID: same.id)?.revokedAt != nil)
        }
    }

    @Test("purge deletes revoked and ended sessions before the cutoff, in batches, and keeps everything else")
    func purge() throws {
        try TemporaryDatabase.with { database, _ in
            let user = try Fixture.user(database)
            let sessions = SessionStore(database: database)
            func make(at seconds: Double, ttl: Int64 = 100) throws -> Session {
                try sessions.create(
                    userID: user.id, userAgent: nil, ip: nil, now: Self.at(seconds), refreshTTL: .seconds(ttl),
                    maxLifetime: .seconds(1000))
            }
            var ended: [String] = []
            for index in 0..<5 { ended.append(try make(at: Double(index)).id) }  // refresh expires by 104 s
            let revokedEarly = try make(at: 0, ttl: 900)
            try sessions.revoke(sessionID: revokedEarly.id, now: Self.at(10))
            let revokedLate = try make(at: 0, ttl: 900)
            try sessions.revoke(sessionID: revokedLate.id, now: Self.at(300))
            let live = try make(at: 0, ttl: 900)
            #expect(try Self.count(database) == 8)
            // Cutoff 200 s: the five refresh-expired ones and the one revoked at 10 s are due (6).
            #expect(try sessions.purgeBatch(endedBefore: Self.at(200), limit: 4) == 4)
            #expect(try sessions.purgeBatch(endedBefore: Self.at(200), limit: 4) == 2)
            #expect(try sessions.purgeBatch(endedBefore: Self.at(200), limit: 4) == 0)
            #expect(try sessions.find(sessionID: revokedLate.id) != nil)
            #expect(try sessions.find(sessionID: live.id) != nil)
            #expect(try sessions.find(sessionID: revokedEarly.id) == nil)
            for id in ended { #expect(try sessions.find(sessionID: id) == nil) }
            // The purge finds its rows through the sessions_by_end index, not a table scan.
            let plan = try database.read { (connection: Connection) throws(StoreError) in
                var details: [String] = []
                for row in try connection.query(
                    """
                    EXPLAIN QUERY PLAN SELECT rowid FROM sessions
                    WHERE min(coalesce(revoked_at, refresh_expires_at), refresh_expires_at) < 1 LIMIT 1
                    """)
                {
                    details.append(try row.string(3))
                }
                return details.joined(separator: "\n")
            }
            #expect(plan.contains("sessions_by_end"))
        }
    }

    @Test("live sessions page by most recent use, then id, each listed once")
    func paging() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        defer { database.close() }
        let user = try Fixture.user(database)
        let sessions = SessionStore(database: database)
        var made: [Session] = []
        // Seven sessions, two pairs sharing a last-used time, so the id breaks ties across page boundaries.
        for seconds in [1.0, 2, 2, 3, 4, 4, 5] {
            made.append(
                try await sessions.create(
                    userID: user.id, userAgent: nil, ip: nil, now: Self.at(seconds), refreshTTL: .seconds(100),
                    maxLifetime: .seconds(1000)))
        }
        let all = try await sessions.liveSessions(userID: user.id, now: Self.at(6))
        var paged: [Session] = []
        var after: SessionPagePosition?
        while true {
            let page = try await sessions.liveSessions(userID: user.id, now: Self.at(6), limit: 2, after: after)
            paged += page
            guard page.count == 2, let last = page.last else { break }
            after = SessionPagePosition(after: last)
        }
        #expect(paged.map(\.id) == all.map(\.id))
        #expect(Set(paged.map(\.id)) == Set(made.map(\.id)))
    }
}
