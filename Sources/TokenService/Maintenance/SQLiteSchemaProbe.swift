import CSQLite

/// Reads a SQLite database's schema version (`PRAGMA user_version`) on a read-only connection, without
/// migrating it: what `tokenvend db status` needs (opening a `SQLiteStore` applies pending migrations).
enum SQLiteSchemaProbe {
    /// The version recorded in the file at `path`.
    /// - Throws: `StoreMaintenance.Failure.store` when the file cannot be opened or read.
    static func userVersion(path: String) throws(StoreMaintenance.Failure) -> Int {
        var handle: OpaquePointer?
        // The handle is closed on every path, including a failed open (SQLite allocates it even then).
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let handle
        else { throw .store("cannot open \(path) read-only") }
        sqlite3_busy_timeout(handle, 5_000)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, "PRAGMA user_version", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        else {
            throw .store("cannot read the schema version of \(path) (\(String(cString: sqlite3_errmsg(handle))))")
        }
        return Int(sqlite3_column_int64(statement, 0))
    }
}
