import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Applies `Schema.migrations` (their PostgreSQL dialect) in order, each in its own transaction that also records
/// the version in `tokenvend_schema_migrations(version, applied_at)`.
///
/// The version is read first without any lock and without creating anything, so an instance whose role may only
/// read and write the tables (no `CREATE` on the schema, PostgreSQL 15's default for `public`) opens a current
/// database. Only when migrations are pending does it take a session-level `pg_advisory_lock`, create the
/// version table and read the version again, so N instances starting together apply each step once.
enum PostgresMigrator {
    /// The advisory lock key: "tokenvnd" in ASCII, a fixed 64-bit number no other tokenvend lock uses.
    static let lockKey: Int64 = 0x746f_6b65_6e76_6e64
    /// Longest wait for another instance's migration to finish.
    static let lockWait = Duration.seconds(60)
    /// Longest time one migration step may take on the client side (the server's `statement_timeout` is off
    /// inside a step: creating an index on a large table may take minutes). Default: 15 minutes.
    static let stepTimeout = Duration.seconds(900)

    static var known: Int { known(Schema.migrations) }

    static func known(_ migrations: [Migration]) -> Int { migrations.last?.version ?? 0 }

    /// Brings the database up to the last known version.
    /// - Parameters:
    ///   - migrations: the steps (tests pass their own list).
    ///   - lockWait: longest wait for the advisory lock.
    /// - Returns: the versions applied by this call and the resulting version.
    /// - Throws: `.schemaTooNew` when the database is newer than this code, `.unavailable(.timedOut)` when the
    ///   lock is not free within `lockWait`, or what a statement throws.
    static func migrate(
        pool: PostgresPool, migrations: [Migration] = Schema.migrations, lockWait: Duration = lockWait
    ) async throws(StoreError) -> MigrationReport {
        let known = known(migrations)
        return try await pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            let before = try version(connection)
            guard before <= known else { throw .schemaTooNew(found: before, known: known) }
            // Current: nothing to lock, nothing to create.
            if before == known {
                return MigrationReport(applied: [], version: SchemaVersion(found: before, known: known))
            }
            try lock(connection, wait: lockWait)
            let applied: [Int]
            do throws(StoreError) {
                applied = try apply(migrations, on: connection)
            } catch {
                unlock(connection)
                throw error
            }
            unlock(connection)
            return MigrationReport(
                applied: applied, version: SchemaVersion(found: try version(connection), known: known))
        }
    }

    /// Under the lock: creates the version table, reads the version again, applies what is still pending.
    private static func apply(_ migrations: [Migration], on connection: PostgresConnection) throws(StoreError)
        -> [Int]
    {
        let known = known(migrations)
        _ = try connection.run(
            [
                PostgresStatement(
                    "migrate.table",
                    """
                    CREATE TABLE IF NOT EXISTS tokenvend_schema_migrations (
                        version INTEGER PRIMARY KEY NOT NULL,
                        applied_at BIGINT NOT NULL
                    )
                    """)
            ], deadline: connection.deadline)
        let found = try version(connection)
        guard found <= known else { throw .schemaTooNew(found: found, known: known) }
        var applied: [Int] = []
        for migration in migrations where migration.version > found {
            // No server-side limit inside a step; the client's deadline still bounds it.
            var statements: [PostgresStatement] = [
                .begin, PostgresStatement(unprepared: "SET LOCAL statement_timeout = 0"),
            ]
            for sql in statementsOf(migration.postgres) { statements.append(PostgresStatement(unprepared: sql)) }
            statements.append(
                PostgresStatement(
                    "migrate.record",
                    """
                    INSERT INTO tokenvend_schema_migrations (version, applied_at)
                    VALUES ($1::integer, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint)
                    """, [String(migration.version)]))
            statements.append(.commit)
            _ = try connection.run(statements, deadline: .now + stepTimeout)
            applied.append(migration.version)
        }
        return applied
    }

    /// Releases the advisory lock: first ends a transaction a failed step left open (in a failed transaction the
    /// unlock itself would fail with 25P02); when the unlock fails, the connection is discarded, so the server
    /// ends its session and with it the lock, instead of a pooled connection holding it.
    private static func unlock(_ connection: PostgresConnection) {
        guard !connection.isBroken else { return }  // the server released it when the session ended
        do throws(StoreError) {
            if connection.inTransaction { _ = try connection.run([.rollback], deadline: connection.deadline) }
            let rows = try connection.run(
                [PostgresStatement("migrate.unlock", "SELECT pg_advisory_unlock($1)", [String(lockKey)])],
                deadline: connection.deadline)
            guard try rows[0].first?.bool(0) == true else { throw .misuse("advisory lock was not held") }
        } catch {
            connection.discard()
        }
    }

    /// The version recorded in the database (0 before the first migration) and the last known one.
    static func schemaVersion(pool: PostgresPool) async throws(StoreError) -> SchemaVersion {
        let found = try await pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try version(connection)
        }
        return SchemaVersion(found: found, known: known)
    }

    /// Reads the version without a lock and without creating anything (a role without `CREATE` may call it).
    private static func version(_ connection: PostgresConnection) throws(StoreError) -> Int {
        let exists = try connection.run(
            [
                PostgresStatement(
                    "migrate.exists", "SELECT to_regclass('tokenvend_schema_migrations') IS NOT NULL")
            ], deadline: connection.deadline)
        guard try exists[0].first?.bool(0) == true else { return 0 }
        let rows = try connection.run(
            [PostgresStatement("migrate.version", "SELECT coalesce(max(version), 0) FROM tokenvend_schema_migrations")],
            deadline: connection.deadline)
        return Int(try rows[0].first?.int64(0) ?? 0)
    }

    /// Takes the advisory lock, polling `pg_try_advisory_lock` so that no statement waits past the query timeout.
    private static func lock(_ connection: PostgresConnection, wait: Duration) throws(StoreError) {
        let deadline = ContinuousClock.now + wait
        while true {
            let rows = try connection.run(
                [PostgresStatement("migrate.lock", "SELECT pg_try_advisory_lock($1)", [String(lockKey)])],
                deadline: connection.deadline)
            if try rows[0].first?.bool(0) == true { return }
            guard ContinuousClock.now < deadline else { throw .unavailable(.timedOut) }
            usleep(20_000)
        }
    }

    /// The statements of a migration script (ours hold no `;` inside literals).
    static func statementsOf(_ script: String) -> [String] {
        script.split(separator: ";").map { part in
            String(part.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }.filter { !$0.isEmpty }
    }
}
