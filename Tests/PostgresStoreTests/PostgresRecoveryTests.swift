import Foundation
import PostgresTesting
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// A PostgreSQL restart: callers fail fast with `.unavailable` and the same store works again afterwards.
@Suite(.timeLimit(.minutes(1))) struct PostgresRecoveryTests {
    /// Runs the cluster's control script (`start`, `stop`, `restart`) and waits for it.
    static func control(_ command: String) throws {
        try TestPostgres.control(command)
    }

    @Test("while the server is down calls fail fast with unavailable; after it is back they succeed without reopening")
    func restart() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(poolSize: 2, queryTimeout: .seconds(1))
        let user = try await Fixture.user(store)
        let session = try await Fixture.session(store, user)
        try await store.ping()
        try Self.control("stop")
        for _ in 0..<3 {
            let started = ContinuousClock.now
            do throws(StoreError) {
                _ = try await store.sessions.find(sessionID: session.id)
                Issue.record("a call succeeded while the server was down")
            } catch {
                #expect(error.isUnavailable)
            }
            #expect(started.duration(to: .now) < .seconds(2))
        }
        try Self.control("start")
        // The pooled connections died with the server; the pool opens new ones by itself.
        #expect(try await store.sessions.find(sessionID: session.id)?.id == session.id)
        try await store.ping()
        // A restart (all connections ended at once) under calls: each call answers or fails fast.
        let calls = Task {
            var failures = 0
            for _ in 0..<40 {
                let started = ContinuousClock.now
                do throws(StoreError) {
                    _ = try await store.sessions.status(sessionID: session.id)
                } catch {
                    #expect(error.isUnavailable)
                    failures += 1
                }
                #expect(started.duration(to: .now) < .seconds(2))
                try? await Task.sleep(for: .milliseconds(25))
            }
            return failures
        }
        try Self.control("restart")
        _ = await calls.value
        guard
            case .rotated = try await store.sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: Fixture.at(1), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
        else {
            Issue.record("rotation after the restart did not rotate")
            return
        }
        // The listener reconnected too: caching is allowed again.
        #expect(await PostgresStatusCacheTests.listening(store))
        store.close()
        await #expect(throws: StoreError.unavailable(.closed)) { try await store.ping() }
        await database.remove()
    }

    @Test("a server that stops answering mid-query (SIGSTOP) fails the call at the client deadline")
    func vanishedServer() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(poolSize: 1, queryTimeout: .milliseconds(500))
        defer { store.close() }
        try await store.ping()
        let rows = try await database.query(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'tokenvend' AND query LIKE '%SELECT 1%'"
                + " AND pid <> pg_backend_pid()")
        let pid = try #require(rows.compactMap { $0[0] }.compactMap { Int32($0) }.first)
        kill(pid, SIGSTOP)
        let started = ContinuousClock.now
        await #expect(throws: StoreError.unavailable(.timedOut)) { try await store.ping() }
        #expect(started.duration(to: .now) < .seconds(2))
        kill(pid, SIGCONT)
        try await store.ping()
        await database.remove()
    }

    @Test("with every pooled connection busy, ping (readiness) still answers at once")
    func pingWhilePoolBusy() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(poolSize: 2)
        defer { store.close() }
        let pool = store.pool
        let busy = (0..<2).map { _ in
            Task {
                try await pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
                    _ = try connection.run(
                        [PostgresStatement(unprepared: "SELECT pg_sleep(1.5)")], deadline: connection.deadline)
                }
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        try await store.ping()
        try await store.ping()
        #expect(started.duration(to: .now) < .milliseconds(500))
        for task in busy { try await task.value }
        await database.remove()
    }

    @Test("a statement past its client deadline fails at once; the server ends it when the client closes, unasked")
    func timedOutStatementEnds() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(poolSize: 1, queryTimeout: .milliseconds(300))
        defer { store.close() }
        let started = ContinuousClock.now
        await #expect(throws: StoreError.unavailable(.timedOut)) {
            _ = try await store.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
                // No server-side limit, as in a migration step or a copy batch.
                try connection.run(
                    [
                        PostgresStatement(unprepared: "SET statement_timeout = 0"),
                        PostgresStatement(unprepared: "SELECT pg_sleep(30) AS abandoned_sleep"),
                    ], deadline: connection.deadline)
            }
        }
        #expect(started.duration(to: .now) < .seconds(1))
        #expect(store.pool.openCount == 0)
        let ended = await PostgresStatusCacheTests.time(within: .seconds(5)) {
            let rows = try? await database.query(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%AS abandoned_sleep' AND pid <> pg_backend_pid()"
            )
            return rows == [["0"]]
        }
        #expect(ended != nil)
        await database.remove()
    }
}
