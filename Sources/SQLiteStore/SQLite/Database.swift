internal import CSQLite
import Dispatch
public import Store
import Synchronization

/// A SQLite database in WAL mode: one writer connection confined to a serial queue and a small pool of
/// reader connections.
///
/// Writes from this process are serialized on the writer queue (the `async` ones grouped into shared commits,
/// see `write(_:) async`), and `busy_timeout` makes writers in other processes (the `tokenvend users` CLI on the
/// same file) wait for each other instead of failing, so callers never see "database is locked" unless a lock is
/// held longer than the timeout (then `.unavailable(.busy)`).
/// Opening applies `journal_mode=WAL`, `synchronous=FULL`, `foreign_keys=ON`, `secure_delete=ON` (deleted rows
/// are overwritten with zeros, so a deleted account's bytes do not linger in free pages; the WAL keeps older page
/// images until a checkpoint resets it) and the pending migrations.
///
/// A failed write never poisons the store: after `SQLITE_FULL` or `SQLITE_READONLY` the transaction is rolled
/// back and the next write tries again; after an I/O error the writer connection is reopened. Reads keep
/// working meanwhile.
///
/// ```swift
/// let database = try Database(configuration: .init(path: "data/tokenvend.sqlite"))
/// let count = try await database.read { try $0.queryOne("SELECT count(*) FROM users")?.int64(0) }
/// ```
///
/// Thread-safety: every method may be called from any thread. The synchronous `read`/`write` block the
/// calling thread, so call them from Dispatch threads or the CLI, never from the cooperative pool; the
/// `async` variants hop to Dispatch queues and resume once.
public final class Database: Sendable {
    /// Where the database lives and how it is accessed.
    public struct Configuration: Sendable, Equatable {
        /// The database file; it and its folders are created if missing (the file 0600, folders 0700, whatever the
        /// umask; SQLite gives its `-wal` and `-shm` files the database file's mode).
        public var path: String
        /// Reader connections kept open at most (readers beyond wait). Default: 4.
        public var readerCount: Int
        /// How long a connection waits for another's lock before `.unavailable(.busy)`. Default: 5 s.
        public var busyTimeout: Duration
        /// Longest time a session's liveness is answered from memory (`SessionStatusCache`); `.zero` reads the
        /// database every time. Any write transaction on the file, by any process using tokenvend's store, ends
        /// every kept answer at once; this lifetime bounds only what that cannot see (a writer killed between
        /// its `COMMIT` and the shared counter's increment, or an edit with the `sqlite3` shell). Default: 1 s.
        public var statusCacheLifetime: Duration

        /// Creates a configuration; see the properties for the defaults.
        public init(
            path: String, readerCount: Int = 4, busyTimeout: Duration = .seconds(5),
            statusCacheLifetime: Duration = .seconds(1)
        ) {
            precondition(readerCount >= 1, "readerCount must be at least 1")
            precondition(statusCacheLifetime >= .zero, "statusCacheLifetime must not be negative")
            self.path = path
            self.readerCount = readerCount
            self.busyTimeout = busyTimeout
            self.statusCacheLifetime = statusCacheLifetime
        }
    }

    /// The configuration the database was opened with.
    public let configuration: Configuration
    let writerQueue: DispatchQueue
    let writer: WriterSlot
    private let readers: ReaderPool
    private let readQueue: DispatchQueue
    let commits = Atomic<UInt64>(0)
    /// The counter every process's write transactions on this file increment.
    let commitCounter: CommitCounter
    /// Session liveness kept between writes; nil when `statusCacheLifetime` is zero.
    let statusCache: SessionStatusCache?
    let queuedWrites = Atomic<Int>(0)
    /// Async writes waiting for a group commit (`Database+GroupCommit.swift`).
    let pendingWriteQueue = WriteQueue(batchLimit: 64)

    /// Opens (creating the file and its folder if needed) and migrates the database.
    /// - Throws: `StoreError.unavailable` when the file cannot be opened, `.schemaTooNew` when a newer
    ///   tokenvend wrote it, `.corrupt` for a damaged file.
    public init(configuration: Configuration) throws(StoreError) {
        self.configuration = configuration
        try Self.createFolder(of: configuration.path)
        try Self.createFile(at: configuration.path)
        let timeout = Int32(clamping: configuration.busyTimeout.storeMilliseconds)
        let path = configuration.path
        let openWriter: @Sendable () throws(StoreError) -> Connection = { () throws(StoreError) -> Connection in
            let connection = try Connection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            try connection.setBusyTimeout(milliseconds: timeout)
            try connection.executeScript(
                "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;")
            return connection
        }
        let openReader: @Sendable () throws(StoreError) -> Connection = { () throws(StoreError) -> Connection in
            let connection = try Connection(path: path, flags: SQLITE_OPEN_READWRITE)
            try connection.setBusyTimeout(milliseconds: timeout)
            try connection.executeScript(
                "PRAGMA query_only = ON; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;")
            return connection
        }
        // Every process on the file must move the counter, or the others' kept session answers go stale.
        guard let counter = CommitCounter(databasePath: path) else { throw .unavailable(.cannotOpen) }
        commitCounter = counter
        if configuration.statusCacheLifetime > .zero {
            statusCache = SessionStatusCache(source: counter, lifetime: configuration.statusCacheLifetime)
        } else {
            statusCache = nil
        }
        let first = try openWriter()
        let mode = try first.queryOne("PRAGMA journal_mode = WAL")?.optionalString(0)
        guard mode == "wal" else { throw .misuse("journal_mode WAL refused (got \(mode ?? "nothing"))") }
        defer { counter.increment() }
        try Migrator.migrate(first, to: Schema.migrations)
        writer = WriterSlot(connection: first, open: openWriter)
        readers = ReaderPool(capacity: configuration.readerCount, open: openReader)
        writerQueue = DispatchQueue(label: "tokenvend.store.writer")
        readQueue = DispatchQueue(label: "tokenvend.store.readers", attributes: .concurrent)
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` … `COMMIT` transaction on the writer connection; rolls back when
    /// `body` throws or the commit fails. Blocks the calling thread (see the type's note).
    ///
    /// When this returns, the transaction is durable (`synchronous=FULL`).
    /// - Precondition: not called from inside another `write` (that would deadlock).
    /// - Throws: what `body` throws, or the `StoreError` of `BEGIN`/`COMMIT` (`.unavailable(.diskFull)`, …).
    public func write<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        dispatchPrecondition(condition: .notOnQueue(writerQueue))
        queuedWrites.add(1, ordering: .relaxed)
        defer { queuedWrites.subtract(1, ordering: .relaxed) }
        return try writerQueue.sync { performWrite(body) }.get()
    }

    /// Runs `body` as a write transaction on the writer queue, suspending (not blocking) the caller.
    ///
    /// Group commit: writes queued while the writer is busy (up to 64, in arrival order) share one
    /// `BEGIN IMMEDIATE` … `COMMIT`, each inside its own `SAVEPOINT`, so many writers pay one fsync. Each
    /// behaves as its own transaction run in queue order: it sees the writes before it, a throwing `body` rolls
    /// back only its own changes, and the caller resumes only once the `COMMIT` is durable.
    ///
    /// `body` may run twice: when a group's `COMMIT` fails, the group is rolled back and its writes are retried
    /// one by one. So `body` must act only through the connection (no other side effects) and return what that
    /// last run computed.
    /// - Throws: what `body` throws, or the `StoreError` of `BEGIN`/`COMMIT` (`.unavailable(.diskFull)`, …).
    public func write<T: Sendable>(
        _ body: @escaping @Sendable (Connection) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        queuedWrites.add(1, ordering: .relaxed)
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<T, StoreError>, Never>) in
            if pendingWriteQueue.enqueue(PendingWrite(body, continuation: continuation)) {
                writerQueue.async { self.drainPendingWrites() }
            }
        }
        return try result.get()
    }

    /// Runs `body` in a read transaction (a consistent snapshot) on a pooled reader connection. Blocks the
    /// calling thread, also while every reader is busy.
    /// - Throws: what `body` throws, or `.unavailable` when no reader can be opened.
    public func read<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        try readers.withReader { (connection: Connection) throws(StoreError) -> T in
            try connection.execute("BEGIN")
            do throws(StoreError) {
                let value = try body(connection)
                try connection.execute("COMMIT")
                return value
            } catch {
                if connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// Runs `body` on a pooled reader connection without `BEGIN`/`COMMIT`: each statement is its own implicit
    /// read transaction, so use it for a single statement (as consistent as `read`, two statements cheaper).
    /// Blocks the calling thread, also while every reader is busy.
    /// - Throws: what `body` throws, or `.unavailable` when no reader can be opened.
    public func readStatement<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        try readers.withReader(body)
    }

    /// Runs `body` in a read transaction on a Dispatch thread, suspending (not blocking) the caller.
    /// - Throws: as the synchronous `read`.
    public func read<T: Sendable>(
        _ body: @escaping @Sendable (Connection) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        let result: Result<T, StoreError> = await withCheckedContinuation { continuation in
            readQueue.async {
                continuation.resume(returning: Result { () throws(StoreError) -> T in try self.read(body) })
            }
        }
        return try result.get()
    }

    /// Closes every connection. Later calls throw `.unavailable(.closed)`. Waits for a running write.
    public func close() {
        writerQueue.sync { writer.close() }
        readers.close()
        statusCache?.close()
        commitCounter.detach()
    }

    /// Runs `body` in a transaction of its own on the writer connection (on the writer queue).
    func performWrite<T>(_ body: (Connection) throws(StoreError) -> T) -> Result<T, StoreError> {
        Result { () throws(StoreError) -> T in
            let connection = try writer.connection()
            // After the transaction ends, committed or not (see `CommitCounter`): never before the COMMIT.
            defer { commitCounter.increment() }
            do throws(StoreError) {
                try connection.execute("BEGIN IMMEDIATE")
                let value = try body(connection)
                try connection.execute("COMMIT")
                commits.add(1, ordering: .relaxed)
                return value
            } catch {
                abandon(connection, after: error)
                throw error
            }
        }
    }

    /// Rolls back the writer's open transaction after `error`, and drops the writer when the error says it is
    /// stale, so the next write reopens it.
    func abandon(_ connection: Connection, after error: StoreError) {
        if connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
        if needsReopen(after: error, connection) { writer.discard() }
    }

    /// Whether `error` means the writer connection is stale (I/O error, opened read-only, …).
    func needsReopen(after error: StoreError, _ connection: Connection) -> Bool {
        error.suggestsReopen || (error == .unavailable(.readOnly) && connection.isReadOnlyFile)
    }
}

extension Database {
    /// Writes waiting for or running on the writer queue (for metrics and back-pressure: each costs about one
    /// fsync with `synchronous=FULL`).
    public var pendingWrites: Int {
        queuedWrites.load(ordering: .relaxed)
    }

    /// Whether the database answers a read (`GET /readyz`). Reads keep working on a full or read-only disk.
    /// - Throws: `.unavailable`, `.corrupt`.
    public func ping() async throws(StoreError) {
        _ = try await read { (connection: Connection) throws(StoreError) in try connection.queryOne("SELECT 1") }
    }

    /// A value that changes whenever a write transaction ends on the database, through this `Database` or any
    /// other one on the file, in this process or another (`CommitCounter`), plus this process's commit count.
    ///
    /// Cache derived data together with the token it was read under, and drop the cache when the token differs
    /// (`SessionStatusCache` does this for session liveness). Cost: two atomic loads. Edits made with another
    /// SQLite client (the `sqlite3` shell) do not move it.
    public func changeToken() -> ChangeToken {
        ChangeToken(localCommits: commits.load(ordering: .relaxed), sharedCounter: commitCounter.value)
    }

    /// Runs `body` on the writer connection outside any transaction (tests use it for pragmas such as
    /// `max_page_count` and `query_only`).
    func withWriterConnection<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        defer { commitCounter.increment() }
        return try writerQueue.sync { Result { () throws(StoreError) -> T in try body(try writer.connection()) } }
            .get()
    }
}

/// Identifies the database's contents at one moment; see `Database.changeToken()`.
public struct ChangeToken: Sendable, Equatable {
    /// Commits made through this `Database` so far.
    public let localCommits: UInt64
    /// The shared `<database>-commits` counter (moves when any process's write transaction on the file ends).
    public let sharedCounter: UInt64
}

extension Database {
    /// Replaces the writer connection (tests use it to simulate a writer SQLite opened read-only).
    func replaceWriterForTesting(_ connection: Connection) throws(StoreError) {
        writerQueue.sync { writer.replace(with: connection) }
    }
}
