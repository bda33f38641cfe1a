import Dispatch
import Store
import Synchronization

/// At most `size` connections to one database, opened on first need, lent to one caller at a time.
///
/// libpq blocks (within each query's deadline), so the work runs on Dispatch threads, never on the cooperative
/// pool: `withConnection` hops there once and resumes once. Each slot has a serial queue of its own, so every
/// lent connection has a thread to block on: Dispatch's concurrent global queues on Linux run about one
/// thread per core and add more only slowly when they block, which held the transactions in flight (and with
/// them PostgreSQL's group commits) to a few, whatever the pool size. A connection that broke (a restart, a deadline, a
/// network error) is discarded when it comes back, and an idle one that died meanwhile is discarded before use;
/// the next caller opens a fresh one, so the pool recovers by itself after PostgreSQL restarts. An open
/// transaction left behind by a failed caller is rolled back before the connection is lent again.
///
/// Thread-safety: every method may be called from any thread; the state is behind one `Mutex`.
final class PostgresPool: Sendable {
    /// What a caller is lent: an open connection, or the right to open one (a free slot).
    /// Each carries its slot, whose queue runs the caller's work.
    enum Lease: Sendable {
        case connection(PostgresConnection, slot: Int)
        case slot(Int)

        var slot: Int {
            switch self {
            case .connection(_, let slot), .slot(let slot): slot
            }
        }
    }

    private struct Waiter {
        let deadline: DispatchTime
        let continuation: CheckedContinuation<Result<Lease, StoreError>, Never>
    }

    private struct State {
        var idle: [(connection: PostgresConnection, slot: Int)] = []
        /// Slots without a connection, free to open one.
        var free: [Int]
        /// Connections open or being opened (idle + lent + slots handed out).
        var open = 0
        var waiters: [Waiter] = []
        /// Whether a sweep for expired waiters is scheduled.
        var sweepScheduled = false
        var closed = false
    }

    let url: PostgresURL
    let settings: PostgresConnection.Settings
    let size: Int
    let acquireTimeout: Duration
    private let state: Mutex<State>
    /// One serial queue per slot (serial queues get a thread of their own when they have work).
    private let queues: [DispatchQueue]
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
        self.state = Mutex(State(free: Array((0..<self.size).reversed())))
        self.queues = (0..<self.size).map { DispatchQueue(label: "tokenvend.postgres.pool.\($0)") }
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
            queues[lease.slot].async {
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
            let taken = (state.idle.map(\.connection), state.waiters)
            state.open -= state.idle.count
            state.free += state.idle.map(\.slot)
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
            let sweepAt: DispatchTime? = state.withLock { (state: inout State) -> DispatchTime? in
                if state.closed {
                    continuation.resume(returning: .failure(.unavailable(.closed)))
                } else if let (connection, slot) = state.idle.popLast() {
                    continuation.resume(returning: .success(.connection(connection, slot: slot)))
                } else if let slot = state.free.popLast() {
                    state.open += 1
                    continuation.resume(returning: .success(.slot(slot)))
                } else {
                    let deadline = DispatchTime.now() + .nanoseconds(max(0, acquireTimeout.nanoseconds))
                    state.waiters.append(Waiter(deadline: deadline, continuation: continuation))
                    if !state.sweepScheduled {
                        state.sweepScheduled = true
                        return deadline
                    }
                }
                return nil
            }
            if let sweepAt { scheduleSweep(at: sweepAt) }
        }
        return try result.get()
    }

    /// One timer for all waiters (not one per wait: under load most callers wait a little, and a Dispatch timer
    /// per acquire cost more than the wait): at `time`, fails the waiters whose deadline passed, then rearms for
    /// the oldest remaining one.
    private func scheduleSweep(at time: DispatchTime) {
        DispatchQueue.global().asyncAfter(deadline: time) { self.sweep() }
    }

    private func sweep() {
        let now = DispatchTime.now()
        let (expired, next) = state.withLock { (state: inout State) -> ([Waiter], DispatchTime?) in
            // Waiters are appended in deadline order (one timeout for all), so the expired ones lead.
            let count = state.waiters.prefix { $0.deadline <= now }.count
            let expired = Array(state.waiters.prefix(count))
            state.waiters.removeFirst(count)
            guard let oldest = state.waiters.first else {
                state.sweepScheduled = false
                return (expired, nil)
            }
            return (expired, oldest.deadline)
        }
        for waiter in expired { waiter.continuation.resume(returning: .failure(.unavailable(.timedOut))) }
        if let next { scheduleSweep(at: next) }
    }

    /// Runs `body` on this (Dispatch) thread with the leased connection, opening one for a slot, then returns
    /// the connection (or its slot) to the pool.
    private func run<T>(_ lease: Lease, _ body: (PostgresConnection) throws(StoreError) -> T) -> Result<T, StoreError> {
        var connection: PostgresConnection
        do throws(StoreError) {
            switch lease {
            case .connection(let leased, _) where leased.checkIdle():
                connection = leased
            case .connection, .slot:
                connection = try PostgresConnection(url: url, settings: settings)
            }
        } catch {
            release(nil, slot: lease.slot)
            return .failure(error)
        }
        let result = Result { () throws(StoreError) -> T in try body(connection) }
        if connection.inTransaction && !connection.isBroken {
            _ = try? connection.run([.rollback], deadline: connection.deadline)
        }
        release(connection.isIdle ? connection : nil, slot: lease.slot)
        return result
    }

    /// Takes back a connection (nil: it was discarded, its slot is free): hands it, or the slot, to the
    /// longest-waiting caller, else keeps it idle.
    private func release(_ connection: PostgresConnection?, slot: Int) {
        let waiter = state.withLock { (state: inout State) -> Waiter? in
            if state.closed {
                state.open -= 1
                state.free.append(slot)
                return nil
            }
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            if let connection {
                state.idle.append((connection, slot))
            } else {
                state.open -= 1
                state.free.append(slot)
            }
            return nil
        }
        waiter?.continuation.resume(returning: .success(connection.map { .connection($0, slot: slot) } ?? .slot(slot)))
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
