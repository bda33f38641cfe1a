import Store
import Testing

@testable import PostgresStore

@Suite("PostgreSQL connection pool")
struct PostgresPoolTests {
    @Test("every connection of a full pool runs its query at once, even with more lent out than cores")
    func fullPoolRunsConcurrently() async throws {
        // Each query waits inside PostgreSQL until `size` connections have started a query with its marker (a
        // connection that is through stays in the pool, showing the marker as its last query). Dispatch's
        // concurrent queues run about one thread per core on Linux, so a pool that ran its blocking libpq calls
        // there held fewer queries in flight than connections, and this barrier never filled (the 5 s statement
        // timeout then failed the test).
        let size = 8
        let marker = "pool_barrier_\(UInt32.random(in: 0...UInt32.max))"
        let barrier = """
            DO $$ BEGIN
                WHILE (SELECT count(*) FROM pg_stat_activity
                       WHERE query LIKE '%\(marker)%')
                      < \(size) LOOP
                    PERFORM pg_sleep(0.01);
                    PERFORM pg_stat_clear_snapshot();
                END LOOP;
            END $$ -- \(marker)
            """
        let pool = try PostgresTestDatabase.pool(try PostgresTestDatabase.baseURL(), size: size)
        defer { pool.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<size {
                group.addTask {
                    _ = try await pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
                        try connection.run([PostgresStatement(unprepared: barrier)], deadline: connection.deadline)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(pool.openCount == size)
    }

    @Test("a caller waiting for a connection of a busy pool times out after the acquire timeout")
    func waitingCallerTimesOut() async throws {
        let configuration = PostgresStore.Configuration(url: try PostgresTestDatabase.baseURL())
        let pool = PostgresPool(
            url: try PostgresURL(configuration.url),
            settings: PostgresConnection.Settings(configuration: configuration),
            size: 1, acquireTimeout: .milliseconds(200))
        defer { pool.close() }
        let holder = Task {
            try await pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
                _ = try connection.run(
                    [PostgresStatement(unprepared: "SELECT pg_sleep(1)")], deadline: connection.deadline)
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let waiters = (0..<3).map { _ in
            Task { () -> StoreError? in
                do throws(StoreError) {
                    _ = try await pool.withConnection { (_: PostgresConnection) throws(StoreError) in 0 }
                    return nil
                } catch {
                    return error
                }
            }
        }
        for waiter in waiters {
            #expect(await waiter.value == .unavailable(.timedOut))
        }
        try await holder.value
        // The pool still lends its connection once it is free again.
        let answer = try await pool.withConnection { (_: PostgresConnection) throws(StoreError) in 42 }
        #expect(answer == 42)
    }
}
