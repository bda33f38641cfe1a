#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension SQLiteStore {
    /// Everything another store needs to take over this deployment (`tokenvend db copy`): every user, every
    /// stored customer id, the sessions still usable at `now` (not revoked, neither expiry reached) and the
    /// revoked sessions not yet purged (so a copy repeated after a logout revokes the session on the target too),
    /// read in one read transaction so they agree with each other.
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
            var revoked: [Session] = []
            for row in try connection.query(
                """
                SELECT \(Session.columns) FROM sessions
                WHERE revoked_at IS NOT NULL OR (refresh_expires_at > ?1 AND expires_at > ?1)
                ORDER BY created_at, id
                """, [.integer(now.storeMilliseconds)])
            {
                let session = try Session(row: row)
                if session.revokedAt == nil { sessions.append(session) } else { revoked.append(session) }
            }
            return StoreSnapshot(users: users, customerIDs: customerIDs, sessions: sessions, revokedSessions: revoked)
        }
    }
}
