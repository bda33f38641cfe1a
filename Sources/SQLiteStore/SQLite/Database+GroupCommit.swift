import Dispatch
import Store
import Synchronization

/// Group commit for the `async` `write`: the writes queued while the writer was busy share one
/// `BEGIN IMMEDIATE` … `COMMIT` (one WAL fsync), each inside its own `SAVEPOINT`.
///
/// Semantics per write are those of a transaction of its own, run in queue order: a write sees the changes of
/// the writes before it in the group; a write whose body throws rolls back to its savepoint and gets its error
/// while the others commit; nobody is resumed before the `COMMIT` succeeded (`synchronous=FULL`).
///
/// When the group as a whole fails (the `COMMIT` fails, or an error rolled back or invalidated the whole
/// transaction), everything is rolled back and the writes are retried one by one, each in its own transaction,
/// so one bad write cannot fail its neighbours; a retry that finds the database unavailable (anything but
/// `.diskFull`, which can depend on the write's size) fails the rest of the group with that error at once.
/// When `BEGIN IMMEDIATE` fails, no body ran and every write of the group gets that error.
extension Database {
    /// Name of the savepoint around each write of a group.
    private static let savepoint = "tokenvend_write"

    /// Runs the next group of queued writes on the writer queue, then schedules another drain if writes are
    /// waiting (a separate work item, so synchronous writes queued meanwhile run in between).
    func drainPendingWrites() {
        dispatchPrecondition(condition: .onQueue(writerQueue))
        let batch = pendingWriteQueue.takeBatch()
        if batch.count == 1, let only = batch.first {
            finish(only, runAlone(only))
        } else if !batch.isEmpty {
            commitGroup(batch)
        }
        if pendingWriteQueue.endDrain() { writerQueue.async { self.drainPendingWrites() } }
    }

    private func commitGroup(_ batch: [PendingWrite]) {
        let connection: Connection
        do throws(StoreError) {
            connection = try writer.connection()
        } catch {
            for write in batch { finish(write, error) }
            return
        }
        do throws(StoreError) {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            abandon(connection, after: error)
            for write in batch { finish(write, error) }
            return
        }
        var failures = [StoreError?](repeating: nil, count: batch.count)
        for (index, write) in batch.enumerated() {
            do throws(StoreError) {
                try connection.execute("SAVEPOINT \(Self.savepoint)")
                try write.run(connection)
                try connection.execute("RELEASE \(Self.savepoint)")
            } catch {
                guard !needsReopen(after: error, connection), rollBackSavepoint(connection) else {
                    abandon(connection, after: error)
                    commitCounter.increment()
                    retryOneByOne(batch)
                    return
                }
                failures[index] = error
            }
        }
        do throws(StoreError) {
            try connection.execute("COMMIT")
        } catch {
            abandon(connection, after: error)
            commitCounter.increment()
            retryOneByOne(batch)
            return
        }
        // After the COMMIT and before anyone resumes (see `CommitCounter`).
        commitCounter.increment()
        commits.add(1, ordering: .relaxed)
        for (write, failure) in zip(batch, failures) { finish(write, failure) }
    }

    /// Undoes the current write of a group. Returns false when the group's transaction is gone or the
    /// savepoint cannot be rolled back (the group then fails as a whole).
    private func rollBackSavepoint(_ connection: Connection) -> Bool {
        guard connection.inTransaction else { return false }
        do throws(StoreError) {
            try connection.execute("ROLLBACK TO \(Self.savepoint)")
            try connection.execute("RELEASE \(Self.savepoint)")
            return connection.inTransaction
        } catch {
            return false
        }
    }

    /// Runs each write of a failed group in a transaction of its own, in order, resuming each when done.
    private func retryOneByOne(_ batch: [PendingWrite]) {
        var unavailable: StoreError?
        for write in batch {
            if let unavailable {
                finish(write, unavailable)
                continue
            }
            let failure = runAlone(write)
            if let failure, failure.isUnavailable, failure != .unavailable(.diskFull) { unavailable = failure }
            finish(write, failure)
        }
    }

    private func finish(_ write: PendingWrite, _ failure: StoreError?) {
        queuedWrites.subtract(1, ordering: .relaxed)
        write.finish(failure)
    }

    /// Runs `write` in a transaction of its own (the path of a lone write, and of each retry).
    /// - Returns: why it failed, or nil once it committed.
    private func runAlone(_ write: PendingWrite) -> StoreError? {
        let result = performWrite { (connection: Connection) throws(StoreError) in try write.run(connection) }
        if case .failure(let error) = result { return error }
        return nil
    }
}
