import Store

/// Holds the writer connection, reopening it after a failure that left it stale.
///
/// `@unchecked Sendable`: every method runs on `Database.writerQueue` (a serial queue), which serializes
/// all access to `current` and `closed`.
final class WriterSlot: @unchecked Sendable {
    private var current: Connection?
    private var closed = false
    private let open: @Sendable () throws(StoreError) -> Connection

    init(connection: Connection, open: @escaping @Sendable () throws(StoreError) -> Connection) {
        self.current = connection
        self.open = open
    }

    /// The open writer connection, reopened if it was discarded.
    /// - Throws: `.unavailable(.closed)` after `close()`, or why reopening failed.
    func connection() throws(StoreError) -> Connection {
        guard !closed else { throw .unavailable(.closed) }
        if let current { return current }
        let fresh = try open()
        current = fresh
        return fresh
    }

    /// Drops the connection so the next write reopens it.
    func discard() {
        current = nil
    }

    /// Uses `connection` from now on (tests).
    func replace(with connection: Connection) {
        current = connection
    }

    /// Drops the connection for good.
    func close() {
        closed = true
        current = nil
    }
}
