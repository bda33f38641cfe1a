import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of `Session`; the PostgreSQL backend reads its own rows.
extension Session {
    static let columns = """
        id, user_id, created_at, last_used_at, refresh_expires_at, expires_at, revoked_at, user_agent, ip, \
        counter, rotated_at, dpop_jkt
        """

    /// `columns` for a file before schema version 11 (no `dpop_jkt`: every session unbound), read by
    /// `SQLiteStore.snapshot(readingFileAt:now:)` without migrating.
    static let columnsBeforeVersion11 = columns.replacing("dpop_jkt", with: "NULL")

    init(row: Row) throws(StoreError) {
        self.init(
            id: try row.string(0), userID: try row.string(1), createdAt: Date(storeMilliseconds: try row.int64(2)),
            lastUsedAt: Date(storeMilliseconds: try row.int64(3)),
            refreshExpiresAt: Date(storeMilliseconds: try row.int64(4)),
            expiresAt: Date(storeMilliseconds: try row.int64(5)),
            revokedAt: try row.optionalInt64(6).map(Date.init(storeMilliseconds:)),
            userAgent: try row.optionalString(7),
            ip: try row.optionalString(8), counter: try row.int64(9),
            rotatedAt: try row.optionalInt64(10).map(Date.init(storeMilliseconds:)),
            dpopThumbprint: try row.optionalString(11))
    }
}
