import Store
import Synchronization

/// The `async` writes waiting for the writer queue, in arrival order, and whether a drain is scheduled.
///
/// `Database` schedules one drain at a time on its writer queue; each drain takes up to `batchLimit` writes
/// (those that arrived before it started) and commits them together. Writes arriving meanwhile wait for the
/// next drain, which the running one schedules when it ends.
final class WriteQueue: Sendable {
    private struct State {
        var writes: [PendingWrite] = []
        var draining = false
    }

    /// Most writes one group commit holds (bounds the latency a write adds to its neighbours).
    let batchLimit: Int
    private let state = Mutex(State())

    init(batchLimit: Int) {
        precondition(batchLimit >= 1, "batchLimit must be at least 1")
        self.batchLimit = batchLimit
    }

    /// Appends `write`.
    /// - Returns: whether the caller must schedule a drain (none was scheduled).
    func enqueue(_ write: PendingWrite) -> Bool {
        state.withLock { (state: inout State) -> Bool in
            state.writes.append(write)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
    }

    /// Removes and returns the oldest writes, at most `batchLimit` (called by the scheduled drain).
    func takeBatch() -> [PendingWrite] {
        state.withLock { (state: inout State) -> [PendingWrite] in
            let count = min(state.writes.count, batchLimit)
            let batch = Array(state.writes.prefix(count))
            state.writes.removeFirst(count)
            return batch
        }
    }

    /// Ends a drain.
    /// - Returns: whether writes are waiting, so the caller must schedule another drain (the queue stays marked
    ///   as draining); otherwise the queue is marked idle.
    func endDrain() -> Bool {
        state.withLock { (state: inout State) -> Bool in
            if state.writes.isEmpty { state.draining = false }
            return state.draining
        }
    }
}
