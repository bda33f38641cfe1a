import Foundation
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Migration 6 on PostgreSQL: rotations become heap-only (HOT) updates; the purge still finds ended sessions.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationSixTests {
    @Test("a version-5 database migrates to 6 keeping every session; no index covers refresh_expires_at; fillfactor 80")
    func upgrades() async throws {
        let database = try await PostgresTestDatabase.make()
        do {
            let pool = try PostgresTestDatabase.pool(database.url)
            defer { pool.close() }
            _ = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(5)))
            try await database.query("INSERT INTO users (id, email, created_at) VALUES ('u1', 'ada@example.com', 1)")
            try await database.query(
                """
                INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
                VALUES ('s1', 'u1', 1, 2, 10, 20)
                """)
            let before = try await database.query("SELECT * FROM sessions ORDER BY id")
            let report = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(6)))
            #expect(report.applied == [6])
            #expect(try await database.query("SELECT * FROM sessions ORDER BY id") == before)
            let indexed = try await database.query(
                """
                SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'sessions'
                    AND indexdef LIKE '%refresh_expires_at%'
                """)
            #expect(indexed.isEmpty)
            #expect(
                try await database.query(
                    """
                    SELECT array_to_string(reloptions, ',') FROM pg_class
                    WHERE oid = (quote_ident(current_schema()) || '.sessions')::regclass
                    """) == [["fillfactor=80"]])
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }

    @Test("100 rotations of one session are heap-only updates, and the purge still deletes ended sessions")
    func rotationsAreHeapOnly() async throws {
        let database = try await PostgresTestDatabase.make()
        do {
            let store = try await database.open()
            let user = try await store.users.create(email: "ada@example.com", passwordHash: Fixture.hash)
            let session = try await store.sessions.create(
                userID: user.id, userAgent: nil, ip: nil, now: Fixture.at(0), refreshTTL: .seconds(3600),
                maxLifetime: .seconds(86_400), maxPerUser: 10, dpopThumbprint: nil
            ).session
            for counter in 0..<100 {
                let outcome = try await store.sessions.rotate(
                    sessionID: session.id, presentedCounter: Int64(counter), now: Fixture.at(Double(counter + 1)),
                    grace: .seconds(0), refreshTTL: .seconds(3600))
                guard case .rotated = outcome else {
                    Issue.record("rotation \(counter): \(outcome)")
                    break
                }
            }
            // A backend's statistics reach pg_stat_user_tables when it ends at the latest: close the pool first.
            store.close()
            var counts: [[String?]] = []
            for _ in 0..<50 {
                counts = try await database.query(
                    """
                    SELECT pg_stat_clear_snapshot()::text, n_tup_upd::text, n_tup_hot_upd::text FROM pg_stat_user_tables
                    WHERE schemaname = current_schema() AND relname = 'sessions'
                    """)
                if let updated = counts.first?[1].flatMap({ Int($0) }), updated >= 100 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let row = try #require(counts.first)
            let updated = try #require(row[1].flatMap { Int($0) })
            let heapOnly = try #require(row[2].flatMap { Int($0) })
            #expect(updated >= 100)
            // On one page with 20 % free, PostgreSQL prunes old versions as it goes: nearly all stay heap-only.
            #expect(heapOnly >= updated * 9 / 10, "\(heapOnly) of \(updated) updates were HOT")

            let purging = try await database.open()
            defer { purging.close() }
            try await database.query("UPDATE sessions SET revoked_at = 5")
            #expect(try await purging.sessions.purgeBatch(endedBefore: Fixture.at(1000), limit: 10) == 1)
            #expect(try await database.query("SELECT count(*) FROM sessions") == [["0"]])
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }
}
