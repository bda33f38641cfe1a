internal import CSQLite
public import Store

/// One SQLite connection: owns its `sqlite3*` (closed in `deinit`) and a cache of prepared statements.
///
/// You never create one: `Database.read` and `Database.write` lend one to a closure. Do not keep it past the
/// closure; it belongs to the writer queue or to the reader pool.
///
/// `@unchecked Sendable`: a connection is used by one thread at a time, guaranteed by `Database` (the writer
/// is touched only on the writer's serial queue; a reader is leased out of the pool's `Mutex` to one caller).
@safe public final class Connection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    /// Statements beyond this many are dropped from the cache (all SQL here is static, so this is a guard).
    private static let statementCacheLimit = 64

    /// Opens `path` with `SQLITE_OPEN_*` `flags` (no shared cache, no mutex: the `Database` confines it).
    /// - Throws: `StoreError.unavailable(.cannotOpen)` and friends.
    init(path: String, flags: Int32) throws(StoreError) {
        var database: OpaquePointer?
        let code = unsafe sqlite3_open_v2(path, &database, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE, nil)
        guard let database = unsafe database else { throw .unavailable(.outOfMemory) }
        guard code == SQLITE_OK else {
            let error = unsafe Statement.error(database)
            unsafe sqlite3_close_v2(database)
            throw error
        }
        unsafe sqlite3_extended_result_codes(database, 1)
        unsafe self.handle = database
    }

    deinit {
        statements.removeAll()
        unsafe sqlite3_close_v2(handle)
    }

    /// Runs one statement with bound parameters (`?` placeholders, in order).
    /// - Returns: the number of rows it changed (`sqlite3_changes`).
    /// - Throws: `StoreError` (`.constraint` for a violated key, `.unavailable` on a full or read-only disk).
    @discardableResult
    public func execute(_ sql: String, _ bindings: [SQLValue] = []) throws(StoreError) -> Int {
        _ = try statement(sql).run(bindings, collect: false)
        return Int(unsafe sqlite3_changes(handle))
    }

    /// Runs one query with bound parameters and returns every row.
    /// - Throws: `StoreError`.
    public func query(_ sql: String, _ bindings: [SQLValue] = []) throws(StoreError) -> [Row] {
        try statement(sql).run(bindings, collect: true)
    }

    /// Runs one query with bound parameters and returns its first row, if any.
    /// - Throws: `StoreError`.
    public func queryOne(_ sql: String, _ bindings: [SQLValue] = []) throws(StoreError) -> Row? {
        try query(sql, bindings).first
    }

    /// Runs several statements without parameters (schema scripts, pragmas, `BEGIN`/`COMMIT`).
    func executeScript(_ sql: String) throws(StoreError) {
        let code = unsafe sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw unsafe Statement.error(handle) }
    }

    /// Sets the busy handler to wait up to `milliseconds` for a lock.
    func setBusyTimeout(milliseconds: Int32) throws(StoreError) {
        let code = unsafe sqlite3_busy_timeout(handle, milliseconds)
        guard code == SQLITE_OK else { throw unsafe Statement.error(handle) }
    }

    /// Whether a transaction is open (so a failed one needs a `ROLLBACK`).
    var inTransaction: Bool {
        unsafe sqlite3_get_autocommit(handle) == 0
    }

    /// Whether SQLite opened the main database read-only (e.g. the file was write-protected at open time).
    var isReadOnlyFile: Bool {
        unsafe sqlite3_db_readonly(handle, "main") == 1
    }

    private func statement(_ sql: String) throws(StoreError) -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try unsafe Statement(database: handle, sql: sql)
        if statements.count >= Self.statementCacheLimit { statements.removeAll() }
        statements[sql] = statement
        return statement
    }
}
