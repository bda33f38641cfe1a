public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// The per-user cap on live sessions and the purge of sessions that can no longer be used.
extension SessionStore {
    /// Starts a session at counter 0, then revokes the user's least recently used live sessions beyond
    /// `maxPerUser` (the new one counts and is never among them), in the same transaction.
    /// - Parameters:
    ///   - maxPerUser: the most live sessions a user keeps (`session.maxPerUser`); at least 1.
    ///   - others as in `create(userID:userAgent:ip:now:refreshTTL:maxLifetime:dpopThumbprint:)`.
    /// - Returns: the new session and how many older sessions were revoked for the cap.
    /// - Throws: as `create`.
    public func create(
        userID: String, userAgent: String?, ip: String?, now: Date = Date(), refreshTTL: Duration,
        maxLifetime: Duration, maxPerUser: Int, dpopThumbprint: String?
    ) async throws(StoreError) -> (session: Session, revoked: Int) {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.create(
                userID: userID, userAgent: userAgent, ip: ip, now: now, refreshTTL: refreshTTL,
                maxLifetime: maxLifetime, maxPerUser: maxPerUser, dpopThumbprint: dpopThumbprint, connection)
        }
    }

    /// The blocking form of `create(…maxPerUser:dpopThumbprint:) async`.
    package func create(
        userID: String, userAgent: String?, ip: String?, now: Date = Date(), refreshTTL: Duration,
        maxLifetime: Duration, maxPerUser: Int, dpopThumbprint: String? = nil
    ) throws(StoreError) -> (session: Session, revoked: Int) {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.create(
                userID: userID, userAgent: userAgent, ip: ip, now: now, refreshTTL: refreshTTL,
                maxLifetime: maxLifetime, maxPerUser: maxPerUser, dpopThumbprint: dpopThumbprint, connection)
        }
    }

    /// Creates a session and revokes the user's least recently used live ones beyond `maxPerUser`, in the
    /// caller's transaction.
    static func create(
        userID: String, userAgent: String?, ip: String?, now: Date, refreshTTL: Duration, maxLifetime: Duration,
        maxPerUser: Int, dpopThumbprint: String?, _ connection: Connection
    ) throws(StoreError) -> (session: Session, revoked: Int) {
        let session = try create(
            userID: userID, userAgent: userAgent, ip: ip, now: now, refreshTTL: refreshTTL,
            maxLifetime: maxLifetime, dpopThumbprint: dpopThumbprint, connection)
        let revoked = try enforceCap(userID: userID, keeping: session.id, max: maxPerUser, now: now, connection)
        return (session, revoked)
    }

    /// Deletes at most `limit` sessions that stopped being usable before `cutoff`: revoked, or past their
    /// refresh expiry (which never exceeds the absolute cap). One short write transaction; the
    /// `sessions_by_end` index finds the rows without a table scan.
    /// - Returns: how many rows were deleted (fewer than `limit` means nothing more is due).
    /// - Throws: `.unavailable` on a full or read-only disk.
    @discardableResult
    package func purgeBatch(endedBefore cutoff: Date, limit: Int) throws(StoreError) -> Int {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.purgeBatch(endedBefore: cutoff, limit: limit, connection)
        }
    }

    static func purgeBatch(endedBefore cutoff: Date, limit: Int, _ connection: Connection) throws(StoreError) -> Int {
        try connection.execute(
            """
            DELETE FROM sessions WHERE rowid IN (
                SELECT rowid FROM sessions
                WHERE min(coalesce(revoked_at, refresh_expires_at), refresh_expires_at) < ?
                LIMIT ?)
            """,
            [.integer(cutoff.storeMilliseconds), .integer(Int64(max(0, limit)))])
    }

    /// Revokes the live sessions of `userID` beyond the `max` most recently used, never `keeping`.
    static func enforceCap(userID: String, keeping: String, max: Int, now: Date, _ connection: Connection)
        throws(StoreError) -> Int
    {
        let time = SQLValue.integer(now.storeMilliseconds)
        return try connection.execute(
            """
            UPDATE sessions SET revoked_at = ?2 WHERE id IN (
                SELECT id FROM sessions
                WHERE user_id = ?1 AND revoked_at IS NULL AND refresh_expires_at > ?2 AND expires_at > ?2
                ORDER BY id = ?3 DESC, last_used_at DESC, id
                LIMIT -1 OFFSET ?4)
            """,
            [.text(userID), time, .text(keeping), .integer(Int64(Swift.max(1, max)))])
    }
}
