package import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SessionStore {
    /// The status of `sessionID` and the customer ids of `userID`, read by one statement (one implicit read
    /// transaction: one snapshot and one set of SQLite locks for an authenticated `POST /stream-token`, without
    /// the `BEGIN` and `COMMIT` round trips of an explicit transaction), or the answer kept from an earlier read
    /// when no write transaction has ended on the database since (see `SessionStatusCache`). Blocks the calling
    /// thread on a miss.
    /// - Parameter emailAsRegistered: as in `UserStore.customerIDs(userID:emailAsRegistered:)`.
    /// - Returns: nil for an unknown session, and the user's ids (empty for an unknown user).
    /// - Throws: `.unavailable` when the database is unreachable.
    package func statusAndCustomerIDs(
        sessionID: String, userID: String, emailAsRegistered: Bool = false
    ) throws(StoreError) -> (status: SessionStatus?, customerIDs: [String: String]) {
        let cache = database.statusCache
        if let kept = cache?.statusAndCustomerIDs(sessionID, userID: userID, emailAsRegistered: emailAsRegistered) {
            return kept
        }
        let stamp = cache?.stamp()
        let read = try database.readStatement { (connection: Connection) throws(StoreError) in
            try Self.statusAndCustomerIDs(sessionID, userID, emailAsRegistered: emailAsRegistered, connection)
        }
        if let cache, let stamp {
            let ids = SessionStatusCache.CustomerIDs(
                userID: userID, emailAsRegistered: emailAsRegistered, ids: read.customerIDs)
            cache.store(read.status, customerIDs: ids, for: sessionID, stamp: stamp)
        }
        return read
    }

    /// The session's row (tag 0) and the user's customer ids (tag 1) in one `UNION ALL`; the ids part is the
    /// query of `UserStore.customerIDs`.
    static let statusAndCustomerIDsSQL = """
        SELECT 0, user_id, revoked_at, expires_at, refresh_expires_at, dpop_jkt FROM sessions WHERE id = ?1
        UNION ALL
        SELECT 1, key, value, NULL, NULL, NULL FROM customer_ids WHERE user_id = ?2
        UNION ALL
        SELECT 1, 'registered',
            CASE WHEN ?3 AND email_verified_at IS NOT NULL AND email IS NOT NULL THEN email ELSE id END, NULL, NULL,
            NULL
        FROM users
        WHERE id = ?2 AND NOT EXISTS (SELECT 1 FROM customer_ids WHERE user_id = ?2 AND key = 'registered')
        """

    static func statusAndCustomerIDs(
        _ sessionID: String, _ userID: String, emailAsRegistered: Bool, _ connection: Connection
    ) throws(StoreError) -> (status: SessionStatus?, customerIDs: [String: String]) {
        var status: SessionStatus?
        var ids: [String: String] = [:]
        for row in try connection.query(
            statusAndCustomerIDsSQL, [.text(sessionID), .text(userID), .integer(emailAsRegistered ? 1 : 0)])
        {
            if try row.int64(0) == 0 {
                status = SessionStatus(
                    userID: try row.string(1),
                    revokedAt: try row.optionalInt64(2).map(Date.init(storeMilliseconds:)),
                    expiresAt: Date(storeMilliseconds: try row.int64(3)),
                    refreshExpiresAt: Date(storeMilliseconds: try row.int64(4)),
                    dpopThumbprint: try row.optionalString(5))
            } else {
                ids[try row.string(1)] = try row.string(2)
            }
        }
        return (status, ids)
    }
}
