#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension SQLiteStore {
    /// Everything another store needs to take over this deployment (`tokenvend db copy`): every user, every
    /// stored customer id, and the sessions still usable at `now` (not revoked, neither expiry reached), read in
    /// one read transaction so the three agree with each other.
    /// - Throws: `.unavailable` when no reader can be opened.
    public func snapshot(now: Date = Date()) async throws(StoreError) -> StoreSnapshot {
        try await database.read { (connection: Connection) throws(StoreError) -> StoreSnapshot in
            let users = try UserStore.list(connection)
            var customerIDs: [StoredCustomerID] = []
            for row in try connection.query("SELECT user_id, key, value FROM customer_ids ORDER BY user_id, key") {
                customerIDs.append(
                    StoredCustomerID(userID: try row.string(0), key: try row.string(1), value: try row.string(2)))
            }
            var sessions: [Session] = []
            for row in try connection.query(
                """
                SELECT \(Session.columns) FROM sessions
                WHERE revoked_at IS NULL AND refresh_expires_at > ?1 AND expires_at > ?1
                ORDER BY created_at, id
                """, [.integer(now.storeMilliseconds)])
            {
                sessions.append(try Session(row: row))
            }
            return StoreSnapshot(users: users, customerIDs: customerIDs, sessions: sessions)
        }
    }
}
