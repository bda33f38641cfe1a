/// One schema step in both dialects. Versions start at 1 and increase by one; both dialects create the same
/// tables and columns with the same meanings (times in integer milliseconds since 1970), so rows copy 1:1.
package struct Migration: Sendable {
    package let version: Int
    /// The step for SQLite (recorded in `PRAGMA user_version`).
    package let sqlite: String
    /// The step for PostgreSQL (recorded in `tokenvend_schema_migrations`, see `PostgresStore`).
    package let postgres: String
    /// Whether the SQLite step rebuilds a table (create a new one, copy, drop the old, rename): the `Migrator`
    /// then turns foreign keys off around the transaction (dropping the old table must neither cascade nor fail)
    /// and runs `PRAGMA foreign_key_check` before COMMIT. Default: false.
    package let rebuildsTables: Bool

    /// A step; tests build their own lists.
    package init(version: Int, sqlite: String, postgres: String, rebuildsTables: Bool = false) {
        self.version = version
        self.sqlite = sqlite
        self.postgres = postgres
        self.rebuildsTables = rebuildsTables
    }
}
