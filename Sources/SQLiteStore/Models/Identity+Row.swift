import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of `Identity`; the PostgreSQL backend reads its own rows.
extension Identity {
    /// The columns `init(row:)` reads, in order.
    static let columns = "provider, subject, user_id, email, created_at"

    init(row: Row) throws(StoreError) {
        self.init(
            provider: try row.string(0), subject: try row.string(1), userID: try row.string(2),
            email: try row.optionalString(3), createdAt: Date(storeMilliseconds: try row.int64(4)))
    }
}
