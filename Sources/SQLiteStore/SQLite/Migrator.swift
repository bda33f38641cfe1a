import Store

/// Applies migrations in order, each in its own `BEGIN IMMEDIATE` transaction, recording the version in
/// `PRAGMA user_version` in the same transaction, so two processes migrating at once apply each step once.
enum Migrator {
    /// Brings the database up to the last migration's version.
    /// - Throws: `.schemaTooNew` when the file's version is above the last known one; `.constraint(.foreignKey)`
    ///   when a table-rebuilding step would leave a dangling reference (the step is rolled back).
    static func migrate(_ connection: Connection, to migrations: [Migration]) throws(StoreError) {
        let known = migrations.last?.version ?? 0
        let found = try userVersion(connection)
        guard found <= known else { throw .schemaTooNew(found: found, known: known) }
        for migration in migrations where migration.version > found {
            // `PRAGMA foreign_keys` is a no-op inside a transaction: it is switched before BEGIN and after the end.
            if migration.rebuildsTables { try connection.executeScript("PRAGMA foreign_keys = OFF") }
            do throws(StoreError) {
                try apply(migration, known: known, connection)
            } catch {
                if migration.rebuildsTables { _ = try? connection.executeScript("PRAGMA foreign_keys = ON") }
                throw error
            }
            if migration.rebuildsTables { try connection.executeScript("PRAGMA foreign_keys = ON") }
        }
    }

    /// One step in its `BEGIN IMMEDIATE` transaction, unless another process applied it while we waited.
    private static func apply(_ migration: Migration, known: Int, _ connection: Connection) throws(StoreError) {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            // Another process may have applied it while we waited for the lock.
            let current = try userVersion(connection)
            guard current <= known else { throw StoreError.schemaTooNew(found: current, known: known) }
            if current < migration.version {
                try connection.executeScript(migration.sqlite)
                if migration.rebuildsTables, try connection.queryOne("PRAGMA foreign_key_check") != nil {
                    throw StoreError.constraint(.foreignKey)
                }
                try connection.executeScript("PRAGMA user_version = \(migration.version)")
            }
            try connection.execute("COMMIT")
        } catch {
            if connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// The database's `PRAGMA user_version`.
    static func userVersion(_ connection: Connection) throws(StoreError) -> Int {
        Int(try connection.queryOne("PRAGMA user_version")?.int64(0) ?? 0)
    }
}
