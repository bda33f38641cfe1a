import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the user, session and rate-limit stores of one `PostgresStore` share: the pool, the clock, the change
/// feed and the status cache.
struct PostgresContext: Sendable {
    let pool: PostgresPool
    let clock: PostgresStore.Clock
    let lockTimeout: Duration
    let changes: PostgresChangeFeed
    let statusCache: SessionStatusCache?

    /// The `now` parameter: the caller's time in milliseconds with `.caller`, NULL with `.database` (the SQL then
    /// reads `clock_timestamp()`; see `now(_:)`).
    func time(_ now: Date) -> String? {
        clock == .caller ? String(now.storeMilliseconds) : nil
    }

    /// SQL for "now" in milliseconds: parameter `$index` when set (the caller's clock), else the database's
    /// `clock_timestamp()`. A scalar subquery, so PostgreSQL evaluates it once per statement.
    static func now(_ index: Int) -> String {
        "(SELECT coalesce($\(index)::bigint, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint))"
    }

    /// Runs read-only statements in one pipeline (one implicit transaction).
    func read(_ statements: [PostgresStatement]) async throws(StoreError) -> [PostgresRows] {
        try await pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(statements, deadline: connection.deadline)
        }
    }

    /// Runs writing statements in one pipeline (one implicit transaction), then ends this instance's kept status
    /// answers (committed or not, as SQLite's commit counter does).
    func write(_ statements: [PostgresStatement]) async throws(StoreError) -> [PostgresRows] {
        defer { changes.changed() }
        return try await read(statements)
    }

    /// Runs writing statements that cannot change a session's status (rate-limit counters) in one pipeline:
    /// kept status answers stay valid, so a login or refresh does not empty this instance's status cache.
    func writeCounters(_ statements: [PostgresStatement]) async throws(StoreError) -> [PostgresRows] {
        try await read(statements)
    }

    /// Runs `body` (a transaction that needs answers between its statements) on one connection, then ends this
    /// instance's kept status answers. The pool rolls back a transaction `body` leaves open.
    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        defer { changes.changed() }
        return try await pool.withConnection(body)
    }
}

extension Duration {
    /// Milliseconds for SQL arithmetic, at most 1,000 years (so `now + duration` cannot overflow a `bigint`).
    var sqlMilliseconds: String {
        String(min(max(storeMilliseconds, 0), 31_536_000_000_000))
    }
}
