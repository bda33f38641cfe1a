public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension SessionStore {
    /// One page of the user's live sessions, most recently used first (then by id), starting after `after`.
    ///
    /// Keyset paging: a session used while a client pages moves to the front, so it may be missed or seen
    /// twice; every session that stays put is listed exactly once.
    /// - Parameters:
    ///   - limit: the most sessions returned.
    ///   - after: where the previous page ended, or nil for the first page.
    /// - Throws: `.unavailable` when no reader can be opened.
    public func liveSessions(
        userID: String, now: Date = Date(), limit: Int, after: SessionPagePosition?
    ) async throws(StoreError) -> [Session] {
        try await database.read { (connection: Connection) throws(StoreError) in
            try Self.liveSessions(userID: userID, now: now, limit: limit, after: after, connection)
        }
    }

    static func liveSessions(
        userID: String, now: Date, limit: Int, after: SessionPagePosition?, _ connection: Connection
    ) throws(StoreError) -> [Session] {
        var sessions: [Session] = []
        for row in try connection.query(
            """
            SELECT \(Session.columns) FROM sessions
            WHERE user_id = ?1 AND revoked_at IS NULL AND refresh_expires_at > ?2 AND expires_at > ?2
                AND (?3 IS NULL OR last_used_at < ?3 OR (last_used_at = ?3 AND id > ?4))
            ORDER BY last_used_at DESC, id
            LIMIT ?5
            """,
            [
                .text(userID), .integer(now.storeMilliseconds),
                after.map { .integer($0.lastUsedMilliseconds) } ?? .null, SQLValue(after?.sessionID),
                .integer(Int64(max(0, limit))),
            ])
        {
            sessions.append(try Session(row: row))
        }
        return sessions
    }
}
