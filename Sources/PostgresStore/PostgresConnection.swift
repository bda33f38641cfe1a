internal import CLibPQ
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One libpq connection in non-blocking pipeline mode: owns its `PGconn*` (closed in `deinit`) and the names of
/// the statements prepared on it.
///
/// Every wait is a `poll` on the connection's socket against a deadline, so a server that vanishes never hangs
/// the caller: past the deadline the connection is marked broken, for the pool to close at once (no `PQcancel`:
/// the server ends the query at its `statement_timeout`, or when it finds the client gone).
///
/// `@unchecked Sendable`: used by one thread at a time, guaranteed by `PostgresPool` (a connection is leased out
/// of the pool's `Mutex` to one caller) and by `PostgresChangeFeed` (its connection never leaves its thread).
@safe final class PostgresConnection: @unchecked Sendable {
    /// How connections are opened and how long their queries may take.
    struct Settings: Sendable {
        var connectTimeout: Duration
        var queryTimeout: Duration
        var lockTimeout: Duration
        /// `application_name`, shown in `pg_stat_activity`. Default: `tokenvend`.
        var applicationName = "tokenvend"
        /// Where failed connection attempts are reported (their class, rate-limited). Default: nowhere.
        var failures: PostgresConnectionFailureLog?

        init(configuration: PostgresStore.Configuration) {
            connectTimeout = configuration.connectTimeout
            queryTimeout = configuration.queryTimeout
            lockTimeout = configuration.lockTimeout
        }

        /// The client-side deadline of a query started now: the server's `statement_timeout` plus a margin, so
        /// the server's own timeout (57014) normally answers first.
        var queryDeadline: ContinuousClock.Instant {
            .now + queryTimeout + .milliseconds(250)
        }
    }

    private let handle: OpaquePointer
    private var prepared: Set<String> = []
    /// Set once the connection cannot be trusted any more (I/O error, deadline, protocol surprise).
    private(set) var isBroken = false
    /// The server process serving this connection (`pg_backend_pid()`).
    let processID: Int32
    /// The settings it was opened with.
    let settings: Settings

    /// Opens a connection, waiting at most `settings.connectTimeout`.
    /// - Throws: `.unavailable(.unreachable)` when the server cannot be reached or refuses the login (libpq's
    ///   message is not passed on: it may name the host and user); its class (`PostgresConnectionFailure`) goes
    ///   to `settings.failures`.
    init(url: PostgresURL, settings: Settings) throws(StoreError) {
        let deadline = ContinuousClock.now + settings.connectTimeout
        let seconds = max(2, settings.connectTimeout.components.seconds)
        // Later keywords override what the URL (the expanded `dbname`) sets.
        let pairs: [(String, String)] = [
            ("dbname", url.text), ("connect_timeout", String(seconds)), ("keepalives", "1"),
            ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
            ("application_name", settings.applicationName),
        ]
        let keywords = CStrings(pairs.map(\.0) + [nil])
        let values = CStrings(pairs.map(\.1) + [nil])
        let started = unsafe keywords.withPointers { keys in
            unsafe values.withPointers { vals in unsafe PQconnectStartParams(keys, vals, 1) }
        }
        guard let connection = unsafe started else { throw .unavailable(.outOfMemory) }
        // Every failure below answers `.unreachable`; its class is reported (never libpq's message itself).
        func fail(deadlinePassed: Bool = false) -> StoreError {
            let message = unsafe PQerrorMessage(connection).map { unsafe String(cString: $0) } ?? ""
            let failure = PostgresConnectionFailure.classify(message: message, deadlinePassed: deadlinePassed)
            unsafe PQfinish(connection)
            settings.failures?.report(failure)
            return .unavailable(.unreachable)
        }
        guard unsafe PQstatus(connection) != CONNECTION_BAD else { throw fail() }
        var state = PGRES_POLLING_WRITING
        while state != PGRES_POLLING_OK {
            let events: Int16
            switch state {
            case PGRES_POLLING_READING: events = Int16(POLLIN)
            case PGRES_POLLING_WRITING: events = Int16(POLLOUT)
            default: throw fail()
            }
            guard (try? Self.wait(socket: unsafe PQsocket(connection), events: events, until: deadline)) == true else {
                throw fail(deadlinePassed: ContinuousClock.now >= deadline)
            }
            state = unsafe PQconnectPoll(connection)
        }
        guard unsafe PQsetnonblocking(connection, 1) == 0, unsafe PQenterPipelineMode(connection) == 1 else {
            throw fail()
        }
        unsafe tokenvend_pq_silence_notices(connection)
        unsafe handle = connection
        processID = unsafe PQbackendPID(connection)
        self.settings = settings
        let timeout = String(settings.queryTimeout.storeMilliseconds)
        // The server checks every second whether this client is still there while a statement runs, so a
        // statement the client gave up on (and closed the connection) ends even without statement_timeout.
        _ = try run(
            [
                PostgresStatement(
                    "connection.setup",
                    """
                    SELECT set_config('statement_timeout', $1, false),
                        set_config('client_connection_check_interval', '1000', false)
                    """, [timeout])
            ],
            deadline: deadline)
    }

    deinit {
        unsafe PQfinish(handle)
    }

    /// Sends `statements` in one pipeline (one round trip, one `Sync`) and returns each one's rows.
    ///
    /// Without an explicit `BEGIN`, the statements form one implicit transaction that commits at the `Sync`:
    /// if one fails, those before it are rolled back and those after it are skipped.
    /// - Throws: the mapped error of the first statement that failed (see `StoreError.postgres`);
    ///   `.unavailable(.timedOut)` past `deadline` (the connection is then broken); `.unavailable(.unreachable)`
    ///   when the connection breaks.
    func run(_ statements: [PostgresStatement], deadline: ContinuousClock.Instant) throws(StoreError)
        -> [PostgresRows]
    {
        guard !isBroken else { throw .unavailable(.unreachable) }
        enum Expected {
            case prepare(String)
            case statement(String)
        }
        var expected: [Expected] = []
        var preparing: Set<String> = []
        for statement in statements {
            if let name = statement.name, !prepared.contains(name), preparing.insert(name).inserted {
                let count = Int32(statement.parameters.count)
                guard unsafe PQsendPrepare(handle, name, statement.sql, count, nil) == 1 else { throw broken() }
                expected.append(.prepare(name))
            }
            guard send(statement) else { throw broken() }
            expected.append(.statement(statement.name ?? statement.sql))
        }
        guard unsafe PQpipelineSync(handle) == 1 else { throw broken() }
        try flush(until: deadline)
        var results: [PostgresRows] = []
        var failure: StoreError?
        for item in expected {
            guard let result = try unsafe nextResult(until: deadline) else { throw broken() }
            let status = unsafe PQresultStatus(result)
            switch (status, item) {
            case (PGRES_COMMAND_OK, .prepare(let name)):
                prepared.insert(name)
            case (PGRES_COMMAND_OK, .statement), (PGRES_TUPLES_OK, .statement):
                results.append(unsafe Self.rows(result))
            case (PGRES_FATAL_ERROR, _):
                let label: String
                switch item {
                case .prepare(let name), .statement(let name): label = name
                }
                let mapped = unsafe error(result, statement: label)
                failure = failure ?? mapped
                if case .statement = item { results.append(PostgresRows(rows: [], affected: 0)) }
            case (PGRES_PIPELINE_ABORTED, _):
                if case .statement = item { results.append(PostgresRows(rows: [], affected: 0)) }
            default:
                failure = failure ?? .misuse("unexpected PostgreSQL result status \(status.rawValue)")
                if case .statement = item { results.append(PostgresRows(rows: [], affected: 0)) }
            }
            unsafe PQclear(result)
            // Each statement's results end with a NULL.
            if let extra = try unsafe nextResult(until: deadline) {
                unsafe PQclear(extra)
                throw broken()
            }
        }
        guard let sync = try unsafe nextResult(until: deadline) else { throw broken() }
        let synced = unsafe PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        unsafe PQclear(sync)
        guard synced else { throw broken() }
        if let failure { throw failure }
        return results
    }

    /// Whether the connection is idle with no transaction open (what the pool wants back).
    var isIdle: Bool {
        unsafe !isBroken && PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// Whether a transaction (open or failed) is in progress, so a `ROLLBACK` is due.
    var inTransaction: Bool {
        let status = unsafe PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Checks an idle connection before use: reads whatever the server sent meanwhile (a shutdown notice, a
    /// closed socket after a restart) without waiting. A connection found dead is marked broken.
    /// - Returns: whether it can be used.
    func checkIdle() -> Bool {
        guard !isBroken else { return false }
        var descriptor = pollfd(fd: unsafe PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = unsafe poll(&descriptor, 1, 0)
        if ready != 0 {
            if unsafe PQconsumeInput(handle) != 1 || PQstatus(handle) == CONNECTION_BAD { isBroken = true }
        }
        return !isBroken
    }

    /// Reads pending input and returns the channel payloads of the notifications received (`LISTEN`).
    /// - Throws: `.unavailable(.unreachable)` when the connection broke.
    func notifications() throws(StoreError) -> [String] {
        guard unsafe PQconsumeInput(handle) == 1, unsafe PQstatus(handle) != CONNECTION_BAD else { throw broken() }
        var payloads: [String] = []
        while let notification = unsafe PQnotifies(handle) {
            unsafe payloads.append(String(cString: notification.pointee.extra))
            unsafe PQfreemem(notification)
        }
        return payloads
    }

    /// Marks the connection broken, so the pool closes it instead of lending it again (its server session, and
    /// any session-level lock it holds, ends with it).
    func discard() {
        isBroken = true
    }

    /// The socket, for a caller that waits for notifications.
    var socket: Int32 { unsafe PQsocket(handle) }

    /// Marks the connection broken and returns the error for it.
    private func broken() -> StoreError {
        isBroken = true
        return .unavailable(.unreachable)
    }

    private func send(_ statement: PostgresStatement) -> Bool {
        let values = CStrings(statement.parameters)
        let count = Int32(statement.parameters.count)
        return unsafe values.withPointers { pointers in
            if let name = statement.name {
                return unsafe PQsendQueryPrepared(handle, name, count, pointers, nil, nil, 0) == 1
            }
            return unsafe PQsendQueryParams(handle, statement.sql, count, nil, pointers, nil, nil, 0) == 1
        }
    }

    private func flush(until deadline: ContinuousClock.Instant) throws(StoreError) {
        while true {
            let pending = unsafe PQflush(handle)
            if pending == 0 { return }
            guard pending > 0 else { throw broken() }
            try waitFor(Int16(POLLIN | POLLOUT), until: deadline)
            guard unsafe PQconsumeInput(handle) == 1 else { throw broken() }
        }
    }

    private func nextResult(until deadline: ContinuousClock.Instant) throws(StoreError) -> OpaquePointer? {
        while unsafe PQisBusy(handle) == 1 {
            try waitFor(Int16(POLLIN), until: deadline)
            guard unsafe PQconsumeInput(handle) == 1 else { throw broken() }
        }
        return unsafe PQgetResult(handle)
    }

    /// Waits for the socket; past the deadline, cancels the query and breaks the connection.
    private func waitFor(_ events: Int16, until deadline: ContinuousClock.Instant) throws(StoreError) {
        let ready: Bool
        do {
            ready = try Self.wait(socket: unsafe PQsocket(handle), events: events, until: deadline)
        } catch {
            throw broken()
        }
        guard ready else {
            // No PQcancel: it opens a connection of its own with no connect timeout, so against a vanished
            // server every timed-out query would leave a thread blocked in it. The connection is discarded
            // instead (the pool closes it at once); the server ends the query by itself: at its
            // statement_timeout, or - for statements run without one (migration steps, `db copy`) - when its
            // client_connection_check_interval finds the socket closed.
            isBroken = true
            throw .unavailable(.timedOut)
        }
    }

    private func error(_ result: OpaquePointer, statement: String) -> StoreError {
        if unsafe PQstatus(handle) == CONNECTION_BAD { isBroken = true }
        let sqlState = unsafe PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { unsafe String(cString: $0) }
        let constraint = unsafe PQresultErrorField(result, Int32(UInt8(ascii: "n"))).map {
            unsafe String(cString: $0)
        }
        return StoreError.postgres(sqlState: sqlState, constraint: constraint, statement: statement)
    }

    private static func rows(_ result: OpaquePointer) -> PostgresRows {
        let rowCount = unsafe PQntuples(result)
        let columnCount = unsafe PQnfields(result)
        var rows: [PostgresRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if unsafe PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                } else {
                    values.append(unsafe String(cString: PQgetvalue(result, row, column)))
                }
            }
            rows.append(PostgresRow(values: values))
        }
        let affected = unsafe Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgresRows(rows: rows, affected: affected)
    }

    /// Waits until `socket` is ready for `events` (or reports an error or hang-up, which the next libpq call
    /// turns into an error), retrying `EINTR`.
    /// - Returns: false when the deadline passed first.
    /// - Throws: `.unavailable(.unreachable)` when `poll` itself fails.
    static func wait(socket: Int32, events: Int16, until deadline: ContinuousClock.Instant) throws(StoreError)
        -> Bool
    {
        guard socket >= 0 else { throw .unavailable(.unreachable) }
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let milliseconds = Int32(clamping: max(1, remaining.storeMilliseconds))
            let ready = unsafe poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { throw .unavailable(.unreachable) }
        }
    }
}

/// C strings owned for the duration of a libpq call (freed in `deinit`); nil elements are NULL pointers.
@safe private final class CStrings {
    private let pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String?]) {
        unsafe pointers = unsafe strings.map { string in unsafe string.map { unsafe strdup($0) } ?? nil }
    }

    deinit {
        unsafe pointers.forEach { unsafe free($0) }
    }

    /// Lends the array as `const char * const *` (nil for an empty array); do not keep the pointer.
    func withPointers<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        let constant = unsafe pointers.map { unsafe UnsafePointer($0) }
        return unsafe constant.withUnsafeBufferPointer { buffer in unsafe body(buffer.baseAddress) }
    }
}
