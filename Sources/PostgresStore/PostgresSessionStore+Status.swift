public import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The per-request liveness reads: answered from the status cache when it holds a valid answer (see
// `PostgresChangeFeed` for what ends one), else by one primary-key read.
extension PostgresSessionStore {
    public func status(sessionID: String) async throws(StoreError) -> SessionStatus? {
        let cache = context.statusCache
        if let kept = cache?.status(sessionID) { return kept }
        let stamp = cache?.stamp()
        let rows = try await context.read([
            PostgresStatement(
                "sessions.status",
                "SELECT user_id, revoked_at, expires_at, refresh_expires_at, dpop_jkt FROM sessions WHERE id = $1",
                [sessionID])
        ])
        let status = try rows[0].first.map(Self.status)
        if let cache, let stamp { cache.store(status, for: sessionID, stamp: stamp) }
        return status
    }

    /// Answers only from the status cache: a miss would wait on the network.
    public func immediateStatus(sessionID: String) throws(StoreError) -> ImmediateRead<SessionStatus?> {
        if let kept = context.statusCache?.status(sessionID) { return .value(kept) }
        return .mustWait
    }

    public func statusAndCustomerIDs(
        sessionID: String, userID: String, emailAsRegistered: Bool
    ) async throws(StoreError) -> SessionRead {
        let cache = context.statusCache
        if let kept = cache?.statusAndCustomerIDs(sessionID, userID: userID, emailAsRegistered: emailAsRegistered) {
            return SessionRead(status: kept.status, customerIDs: kept.customerIDs)
        }
        let stamp = cache?.stamp()
        // One statement: one snapshot for the session and the ids (the query of `SessionStore`).
        let rows = try await context.read([
            PostgresStatement(
                "sessions.statusAndCustomerIDs",
                """
                SELECT 0, user_id, revoked_at::text, expires_at, refresh_expires_at, dpop_jkt
                FROM sessions WHERE id = $1
                UNION ALL
                SELECT 1, key, value, NULL, NULL, NULL FROM customer_ids WHERE user_id = $2
                UNION ALL
                SELECT 1, 'registered',
                    CASE WHEN $3::boolean AND email_verified_at IS NOT NULL AND email IS NOT NULL THEN email ELSE id END,
                    NULL, NULL, NULL
                FROM users
                WHERE id = $2 AND NOT EXISTS (SELECT 1 FROM customer_ids WHERE user_id = $2 AND key = 'registered')
                """, [sessionID, userID, emailAsRegistered ? "true" : "false"])
        ])
        var status: SessionStatus?
        var ids: [String: String] = [:]
        for row in rows[0].rows {
            if try row.int64(0) == 0 {
                status = try Self.status(PostgresRow(values: Array(row.values.dropFirst())))
            } else {
                ids[try row.string(1)] = try row.string(2)
            }
        }
        if let cache, let stamp {
            let kept = SessionStatusCache.CustomerIDs(userID: userID, emailAsRegistered: emailAsRegistered, ids: ids)
            cache.store(status, customerIDs: kept, for: sessionID, stamp: stamp)
        }
        return SessionRead(status: status, customerIDs: ids)
    }

    /// Answers only from the status cache: a miss would wait on the network.
    public func immediateStatusAndCustomerIDs(
        sessionID: String, userID: String, emailAsRegistered: Bool
    ) throws(StoreError) -> ImmediateRead<SessionRead> {
        guard
            let kept = context.statusCache?.statusAndCustomerIDs(
                sessionID, userID: userID, emailAsRegistered: emailAsRegistered)
        else { return .mustWait }
        return .value(SessionRead(status: kept.status, customerIDs: kept.customerIDs))
    }

    /// A status from `user_id, revoked_at, expires_at, refresh_expires_at, dpop_jkt`.
    static func status(_ row: PostgresRow) throws(StoreError) -> SessionStatus {
        SessionStatus(
            userID: try row.string(0), revokedAt: try row.optionalInt64(1).map { Date(storeMilliseconds: $0) },
            expiresAt: Date(storeMilliseconds: try row.int64(2)),
            refreshExpiresAt: Date(storeMilliseconds: try row.int64(3)), dpopThumbprint: try row.optionalString(4))
    }
}
