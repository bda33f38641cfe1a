import Dispatch
import Store
import Synchronization

/// At most `size` connections to one database, opened on first need, lent to one caller at a time.
///
/// libpq blocks (within each query's deadline), so the work runs on Dispatch threads, never on the cooperative
/// pool: `withConnection` hops there once and resumes once. A connection that broke (a restart, a deadline, a
/// network error) is discarded when it comes back, and an idle one that died meanwhile is discarded before use;
/// the next caller opens a fresh one, so the pool recovers by itself after PostgreSQL restarts. An open
/// transaction left behind by a failed caller is rolled back before the connection is lent again.
///
/// Thread-safety: every method may be called from any thread; the state is behind one `Mutex`.
final class PostgresPool: Sendable {
    /// What a caller is lent: an open connection, or the right to open one (a free slot).
    enum Lease: Sendable {
        case connection(PostgresConnection)
        case slot
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Result<Lease, StoreError>, Never>
    }

    private struct State {
        var idle: [PostgresConnection] = []
        /// Connections open or being opened (idle + lent + slots handed out).
        var open = 0
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var closed = false
    }

    let url: PostgresURL
    let settings: PostgresConnection.Settings
    let size: Int
    let acquireTimeout: Duration
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "tokenvend.postgres.pool", attributes: .concurrent)
    /// Where pings run, one at a time, on `pingConnection` (kept between pings; not part of `size`).
    private let pingQueue = DispatchQueue(label: "tokenvend.postgres.ping")
    private let pingConnection = Mutex<PostgresConnection?>(nil)

    /// - Parameters:
    ///   - size: most connections open at once; at least 1.
    ///   - acquireTimeout: longest wait for a free connection before `.unavailable(.timedOut)`.
    init(url: PostgresURL, settings: PostgresConnection.Settings, size: Int, acquireTimeout: Duration = .seconds(2)) {
        self.url = url
        self.settings = settings
        self.size = max(1, size)
        self.acquireTimeout = acquireTimeout
    }

    /// Lends a connection to `body` on a Dispatch thread and takes it back.
    /// - Throws: what `body` throws; `.unavailable(.timedOut)` when no connection frees up within the acquire
    ///   timeout; `.unavailable(.unreachable)` when a new connection cannot be opened; `.unavailable(.closed)`
    ///   after `close()`.
    func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        let lease = try await acquire()
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<T, StoreError>, Never>) in
            queue.async {
                continuation.resume(returning: self.run(lease, body))
            }
        }
        return try result.get()
    }

    /// `SELECT 1` on a dedicated connection outside the pool (`GET /readyz`), so readiness reports whether the
    /// database answers, not whether every pooled connection is busy. Pings run one at a time on their own
    /// queue; each waits at most the connect timeout (when the ping connection must be opened) plus the query
    /// timeout. The ping connection is kept between pings and replaced when it broke.
    /// - Throws: `.unavailable(.unreachable)` or `.unavailable(.timedOut)` when the database does not answer,
    ///   `.unavailable(.closed)` after `close()`.
    func ping() async throws(StoreError) {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Void, StoreError>, Never>) in
            pingQueue.async { continuation.resume(returning: self.pingNow()) }
        }
        try result.get()
    }

    /// On `pingQueue`: pings on the kept ping connection, opening one when there is none or it died.
    private func pingNow() -> Result<Void, StoreError> {
        guard !state.withLock({ $0.closed }) else { return .failure(.unavailable(.closed)) }
        let kept = pingConnection.withLock { $0.take() }
        return Result { () throws(StoreError) in
            // A kept connection that died since (a server restart) may look idle until used: one retry on a
            // fresh connection, so a stale connection is not reported as an unreachable database.
            if let kept, kept.checkIdle() {
                do throws(StoreError) {
                    try ping(on: kept)
                    return
                } catch {
                    guard kept.isBroken, case .unavailable(.unreachable) = error else { throw error }
                }
            }
            try ping(on: try PostgresConnection(url: url, settings: settings))
        }
    }

    /// `SELECT 1`; keeps the connection for the next ping when it is still good.
    private func ping(on connection: PostgresConnection) throws(StoreError) {
        _ = try connection.run([PostgresStatement("pool.ping", "SELECT 1")], deadline: connection.deadline)
        if connection.isIdle, !state.withLock({ $0.closed }) {
            pingConnection.withLock { $0 = connection }
        }
    }

    /// Closes the idle connections and fails the waiting callers; connections lent out close when they return.
    func close() {
        let (idle, waiters) = state.withLock { (state: inout State) -> ([PostgresConnection], [Waiter]) in
            state.closed = true
            let taken = (state.idle, state.waiters)
            state.open -= state.idle.count
            state.idle.removeAll()
            state.waiters.removeAll()
            return taken
        }
        for waiter in waiters { waiter.continuation.resume(returning: .failure(.unavailable(.closed))) }
        _ = idle  // closed here, as the last references go
        pingQueue.async { self.pingConnection.withLock { $0 = nil } }
    }

    /// Connections open now (for tests).
    var openCount: Int { state.withLock { $0.open } }

    private func acquire() async throws(StoreError) -> Lease {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Lease, StoreError>, Never>) in
            let waiting: UInt64? = state.withLock { (state: inout State) -> UInt64? in
                if state.closed {
                    continuation.resume(returning: .failure(.unavailable(.closed)))
                } else if let connection = state.idle.popLast() {
                    continuation.resume(returning: .success(.connection(connection)))
                } else if state.open < size {
                    state.open += 1
                    continuation.resume(returning: .success(.slot))
                } else {
                    state.nextWaiterID += 1
                    state.waiters.append(Waiter(id: state.nextWaiterID, continuation: continuation))
                    return state.nextWaiterID
                }
                return nil
            }
            if let waiting {
                let nanoseconds = max(0, acquireTimeout.nanoseconds)
                queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { self.timeOut(waiting) }
            }
        }
        return try result.get()
    }

    private func timeOut(_ id: UInt64) {
        let waiter = state.withLock { (state: inout State) -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: .failure(.unavailable(.timedOut)))
    }

    /// Runs `body` on this (Dispatch) thread with the leased connection, opening one for a slot, then returns
    /// the connection (or its slot) to the pool.
    private func run<T>(_ lease: Lease, _ body: (PostgresConnection) throws(StoreError) -> T) -> Result<T, StoreError> {
        var connection: PostgresConnection
        do throws(StoreError) {
            switch lease {
            case .connection(let leased) where leased.checkIdle():
                connection = leased
            case .connection, .slot:
                connection = try PostgresConnection(url: url, settings: settings)
            }
        } catch {
            release(nil)
            return .failure(error)
        }
        let result = Result { () throws(StoreError) -> T in try body(connection) }
        if connection.inTransaction && !connection.isBroken {
            _ = try? connection.run([.rollback], deadline: connection.deadline)
        }
        release(connection.isIdle ? connection : nil)
        return result
    }

    /// Takes back a connection (nil: it was discarded, its slot is free): hands it, or the slot, to the
    /// longest-waiting caller, else keeps it idle.
    private func release(_ connection: PostgresConnection?) {
        let waiter = state.withLock { (state: inout State) -> Waiter? in
            if state.closed {
                state.open -= 1
                return nil
            }
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            if let connection {
                state.idle.append(connection)
            } else {
                state.open -= 1
            }
            return nil
        }
        waiter?.continuation.resume(returning: .success(connection.map { .connection($0) } ?? .slot))
    }
}

extension PostgresConnection {
    /// The deadline of a query started now (see `Settings.queryDeadline`).
    var deadline: ContinuousClock.Instant { settings.queryDeadline }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: Int {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return Int(clamping: product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }
}
