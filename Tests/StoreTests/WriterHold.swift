import Dispatch

@testable import SQLiteStore
@testable import Store

/// Keeps a database's writer queue busy (outside any transaction) until `release()`, so `async` writes queue up
/// behind it and the next drain commits them as one group.
final class WriterHold: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Returns once the writer queue of `database` is held.
    static func hold(_ database: Database) async -> WriterHold {
        let hold = WriterHold()
        DispatchQueue.global().async {
            _ = try? database.withWriterConnection { (_: Connection) throws(StoreError) in
                hold.entered.signal()
                hold.released.wait()
            }
            hold.finished.signal()
        }
        await wait(hold.entered)
        return hold
    }

    /// Lets the writer queue go on, and returns once the hold left it.
    func release() async {
        released.signal()
        await Self.wait(finished)
    }

    /// Waits for `semaphore` on a Dispatch thread (never blocking the cooperative pool).
    static func wait(_ semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                semaphore.wait()
                continuation.resume()
            }
        }
    }

    /// Starts `body` (one async write) in a task and returns once the write is queued, i.e. once
    /// `database.pendingWrites` reached `queued`; writes started one after another this way queue in that order.
    static func enqueue<T: Sendable>(
        _ database: Database, queued: Int, _ body: @escaping @Sendable () async throws -> T
    ) async -> Task<T, any Error> {
        let task = Task { try await body() }
        await waitUntilPending(database, queued)
        return task
    }

    /// Returns once at least `count` writes are waiting for or running on the writer queue.
    static func waitUntilPending(_ database: Database, _ count: Int) async {
        while database.pendingWrites < count {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
