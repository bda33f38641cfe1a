internal import CSQLite
import Store

extension SQLiteStore {
    /// Why `recordedVersion(atPath:)` could not answer; `description` is one line for the terminal.
    package enum RecordedVersionError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file cannot be opened read-only.
        case cannotOpen(path: String)
        /// The file opened but `PRAGMA user_version` failed; `reason` is SQLite's message.
        case cannotRead(path: String, reason: String)

        package var description: String {
            switch self {
            case .cannotOpen(let path): "cannot open \(path) read-only"
            case .cannotRead(let path, let reason): "cannot read the schema version of \(path) (\(reason))"
            }
        }
    }

    /// The schema version recorded in the SQLite file at `path` (`PRAGMA user_version`), read on a read-only
    /// connection without migrating it: what `tokenvend db status` needs (opening a `SQLiteStore` applies pending
    /// migrations).
    /// - Throws: `RecordedVersionError` when the file cannot be opened or read.
    package static func recordedVersion(atPath path: String) throws(RecordedVersionError) -> Int {
        var handle: OpaquePointer?
        // The handle is closed on every path, including a failed open (SQLite allocates it even then).
        defer { unsafe sqlite3_close_v2(handle) }
        guard unsafe sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let handle = unsafe handle
        else { throw .cannotOpen(path: path) }
        unsafe sqlite3_busy_timeout(handle, 5_000)
        var statement: OpaquePointer?
        defer { unsafe sqlite3_finalize(statement) }
        guard unsafe sqlite3_prepare_v2(handle, "PRAGMA user_version", -1, &statement, nil) == SQLITE_OK,
            unsafe sqlite3_step(statement) == SQLITE_ROW
        else {
            throw .cannotRead(path: path, reason: unsafe String(cString: sqlite3_errmsg(handle)))
        }
        return Int(unsafe sqlite3_column_int64(statement, 0))
    }
}
