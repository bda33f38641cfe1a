/// Every failure the store reports.
///
/// Messages never contain bound values (emails, hashes, tokens): they name the failing constraint or
/// condition only, so an error can be logged as is.
public enum StoreError: Error, Sendable, Equatable {
    /// The database cannot take the operation right now; the caller should answer 503 with `Retry-After`.
    ///
    /// Reads keep working while writes fail with `.diskFull` or `.readOnly`, and the store recovers on its
    /// own (without reopening the `Database`) once the condition clears.
    case unavailable(Unavailability)
    /// A constraint failed, e.g. a unique key already taken.
    case constraint(ConstraintKind)
    /// A user with this (normalised) email already exists.
    case emailTaken
    /// The addressed row does not exist.
    case notFound
    /// The user is disabled (a session cannot be started for it).
    case userDisabled
    /// The database file is damaged or not a database.
    case corrupt
    /// The database was written by a newer tokenvend: its schema version is above what this code knows.
    case schemaTooNew(found: Int, known: Int)
    /// A programmer error: bad SQL, a wrong column type, a misused API. The message comes from SQLite or
    /// the wrapper and never holds bound values.
    case misuse(String)

    /// Why the database is unavailable.
    public enum Unavailability: Sendable, Equatable {
        /// `SQLITE_FULL`: the disk (or `max_page_count`) is full.
        case diskFull
        /// `SQLITE_READONLY*`: the file, the file system or the connection is read-only.
        case readOnly
        /// `SQLITE_IOERR*` / `SQLITE_PROTOCOL`: the operating system reported an I/O error.
        case ioError
        /// `SQLITE_CANTOPEN*`: the file (or its `-wal`/`-shm`) cannot be opened.
        case cannotOpen
        /// `SQLITE_BUSY` / `SQLITE_LOCKED` after the busy timeout: another process holds the write lock.
        case busy
        /// `SQLITE_NOMEM`.
        case outOfMemory
        /// The `Database` was closed.
        case closed
        /// A network database (PostgreSQL) cannot be reached, or its connection broke.
        case unreachable
        /// A row stayed locked by another transaction past the lock timeout (PostgreSQL `lock_timeout`).
        case lockTimeout
        /// No connection became free, or the database did not answer, within the deadline.
        case timedOut
    }

    /// Which kind of constraint failed.
    public enum ConstraintKind: Sendable, Equatable {
        case unique, primaryKey, foreignKey, notNull, check, other
    }
}

extension StoreError {
    /// Whether the caller should answer 503 (`.unavailable`).
    public var isUnavailable: Bool {
        if case .unavailable = self { return true }
        return false
    }
}
