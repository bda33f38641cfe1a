import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of the outbox types; the PostgreSQL backend reads its own rows.
extension OutboxEntry {
    /// The columns `init(row:)` reads, in order.
    static let columns = "id, kind, recipient, body, attempts, created_at"

    init(row: Row) throws(StoreError) {
        guard case .blob(let body) = try row.value(3) else { throw .misuse("column 3 is not a blob") }
        self.init(
            id: try row.string(0), kind: try row.string(1), recipient: try row.string(2), body: body,
            attempts: Int(try row.int64(4)), createdAt: Date(storeMilliseconds: try row.int64(5)))
    }
}

extension OutboxSummary {
    /// The columns `init(row:)` reads, in order.
    static let columns =
        "id, kind, recipient, attempts, created_at, next_attempt_at, claimed_until, failed_at, last_error"

    init(row: Row) throws(StoreError) {
        self.init(
            id: try row.string(0), kind: try row.string(1), recipient: try row.string(2),
            attempts: Int(try row.int64(3)), createdAt: Date(storeMilliseconds: try row.int64(4)),
            nextAttemptAt: Date(storeMilliseconds: try row.int64(5)),
            claimedUntil: try row.optionalInt64(6).map(Date.init(storeMilliseconds:)),
            failedAt: try row.optionalInt64(7).map(Date.init(storeMilliseconds:)), lastError: try row.optionalString(8))
    }
}
