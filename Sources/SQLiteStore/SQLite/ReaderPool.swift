import Dispatch
import Store
import Synchronization

/// A bounded pool of read-only connections, opened lazily and reused.
///
/// At most `capacity` connections are leased at once (a semaphore makes further readers wait; they run on
/// Dispatch threads, never the cooperative pool). Idle connections wait in a `Mutex`-guarded stack.
final class ReaderPool: Sendable {
    private struct State {
        var idle: [Connection] = []
        var closed = false
    }

    private let state = Mutex(State())
    private let permits: DispatchSemaphore
    private let open: @Sendable () throws(StoreError) -> Connection

    init(capacity: Int, open: @escaping @Sendable () throws(StoreError) -> Connection) {
        self.permits = DispatchSemaphore(value: capacity)
        self.open = open
    }

    /// Leases a connection to `body`, then returns it to the pool (or drops it if it failed in a way that
    /// suggests the file changed under it).
    func withReader<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        permits.wait()
        defer { permits.signal() }
        let leased = try state.withLock { (state: inout State) throws(StoreError) -> Connection? in
            guard !state.closed else { throw .unavailable(.closed) }
            return state.idle.popLast()
        }
        let connection: Connection
        if let leased { connection = leased } else { connection = try open() }
        do throws(StoreError) {
            let value = try body(connection)
            giveBack(connection)
            return value
        } catch {
            if !error.suggestsReopen { giveBack(connection) }
            throw error
        }
    }

    /// Closes the idle connections; leased ones close when they come back.
    func close() {
        let dropped = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        _ = dropped  // released (and closed) here, outside the lock
    }

    private func giveBack(_ connection: Connection) {
        state.withLock { state in
            if !state.closed { state.idle.append(connection) }
        }
    }
}
