import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of `Identity`; the PostgreSQL backend reads its own rows.
extension Identity {
    /// The columns `init(row:)` reads, in order.
    static let columns = "provider, subject, user_id, email, created_at, refresh_token, email_forwarding"

    /// `columns` for a file older than schema 9 (read by a snapshot without migrating): no sealed token, unknown
    /// forwarding.
    static let columnsBeforeVersion9 = "provider, subject, user_id, email, created_at, NULL, NULL"

    init(row: Row) throws(StoreError) {
        let sealed: [UInt8]?
        switch try row.value(5) {
        case .null: sealed = nil
        case .blob(let bytes): sealed = bytes
        default: throw .misuse("identities.refresh_token is not a blob")
        }
        self.init(
            provider: try row.string(0), subject: try row.string(1), userID: try row.string(2),
            email: try row.optionalString(3), createdAt: Date(storeMilliseconds: try row.int64(4)),
            sealedRefreshToken: sealed, emailForwarding: try row.optionalInt64(6).map { $0 != 0 })
    }

    /// The values of `columns`, in order.
    var bindings: [SQLValue] {
        [
            .text(provider), .text(subject), .text(userID), SQLValue(email), .integer(createdAt.storeMilliseconds),
            sealedRefreshToken.map { .blob($0) } ?? .null, SQLValue(emailForwarding.map { $0 ? 1 : 0 }),
        ]
    }
}
