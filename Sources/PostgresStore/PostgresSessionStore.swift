public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Sessions and refresh-token rotation in PostgreSQL, with the results and errors of `SessionStore` (SQLite).
///
/// Every revocation (`revoke`, `revokeOthers`, `revokeAll`, reuse detection, the per-user cap in `create`)
/// notifies `tokenvend_sessions` in its own transaction, so every instance's status cache drops its answers
/// within milliseconds. Rotation is in `PostgresSessionStore+Rotation.swift`, the liveness reads in
/// `PostgresSessionStore+Status.swift`.
public struct PostgresSessionStore: SessionStoring {
    let context: PostgresContext

    init(context: PostgresContext) {
        self.context = context
    }

    static let columns = """
        id, user_id, created_at, last_used_at, refresh_expires_at, expires_at, revoked_at, user_agent, ip, \
        counter, rotated_at, dpop_jkt
        """

    /// One pipeline, one round trip: lock the user row (`FOR SHARE`, so a concurrent `disable` either waits for
    /// this session and revokes it, or is seen here), insert the session if the user is active, revoke the
    /// least recently used live sessions beyond the cap, commit.
    public func create(
        userID: String, userAgent: String?, ip: String?, now: Date, refreshTTL: Duration, maxLifetime: Duration,
        maxPerUser: Int, dpopThumbprint: String?
    ) async throws(StoreError) -> (session: Session, revoked: Int) {
        let id = UUID().uuidString.lowercased()
        let statements: [PostgresStatement] = [
            .begin,
            PostgresStatement(
                "sessions.createLockUser", "SELECT disabled_at IS NOT NULL FROM users WHERE id = $1 FOR SHARE",
                [userID]),
            PostgresStatement(
                "sessions.create",
                """
                INSERT INTO sessions (\(Self.columns))
                SELECT $1, u.id, t.now, t.now, least(t.now + $5::bigint, t.now + $6::bigint), t.now + $6::bigint,
                    NULL, $3, $4, 0, NULL, $8
                FROM users u, (SELECT \(PostgresContext.now(7)) AS now) t
                WHERE u.id = $2 AND u.disabled_at IS NULL
                RETURNING created_at, refresh_expires_at, expires_at
                """,
                [
                    id, userID, userAgent, ip, refreshTTL.sqlMilliseconds, maxLifetime.sqlMilliseconds,
                    context.time(now), dpopThumbprint,
                ]),
            PostgresStatement(
                "sessions.enforceCap",
                """
                WITH t AS (SELECT created_at AS now FROM sessions WHERE id = $3),
                victims AS (
                    SELECT s.id FROM sessions s, t
                    WHERE s.user_id = $1 AND s.revoked_at IS NULL AND s.refresh_expires_at > t.now
                        AND s.expires_at > t.now
                    ORDER BY s.id = $3 DESC, s.last_used_at DESC, s.id
                    OFFSET $2::bigint
                    FOR UPDATE OF s),
                r AS (
                    UPDATE sessions SET revoked_at = t.now FROM victims, t
                    WHERE sessions.id = victims.id RETURNING sessions.id)
                SELECT c.n, pg_notify('\(PostgresChangeFeed.channel)', $1) FROM (SELECT count(*) AS n FROM r) c
                WHERE c.n > 0
                """, [userID, String(max(1, maxPerUser)), id]),
            .commit,
        ]
        let rows = try await context.write(statements)
        guard let owner = rows[1].first else { throw .notFound }
        guard try !owner.bool(0), let created = rows[2].first else { throw .userDisabled }
        let start = Date(storeMilliseconds: try created.int64(0))
        let session = Session(
            id: id, userID: userID, createdAt: start, lastUsedAt: start,
            refreshExpiresAt: Date(storeMilliseconds: try created.int64(1)),
            expiresAt: Date(storeMilliseconds: try created.int64(2)), revokedAt: nil, userAgent: userAgent, ip: ip,
            counter: 0, rotatedAt: nil, dpopThumbprint: dpopThumbprint)
        let revoked = try rows[3].first?.int64(0) ?? 0
        return (session, Int(revoked))
    }

    @discardableResult
    public func revoke(sessionID: String, userID: String?, now: Date) async throws(StoreError) -> Int {
        try await revoke(
            "sessions.revoke", "id = $1 AND ($2::text IS NULL OR user_id = $2)", [sessionID, userID], now: now,
            payload: "$1")
    }

    @discardableResult
    public func revokeOthers(userID: String, except: String, now: Date) async throws(StoreError) -> Int {
        try await revoke(
            "sessions.revokeOthers", "user_id = $1 AND id <> $2", [userID, except], now: now, payload: "$1")
    }

    @discardableResult
    public func revokeAll(userID: String, now: Date) async throws(StoreError) -> Int {
        try await revoke(
            "sessions.revokeAll", "user_id = $1 AND $2::text IS NULL", [userID, nil], now: now, payload: "$1")
    }

    /// Revokes the live sessions matching `condition` (over `$1`, `$2`) and, when any was, notifies with `payload`,
    /// in one statement (one implicit transaction).
    private func revoke(
        _ name: String, _ condition: String, _ parameters: [String?], now: Date, payload: String
    ) async throws(StoreError) -> Int {
        let rows = try await context.write([
            PostgresStatement(
                name,
                """
                WITH r AS (
                    UPDATE sessions SET revoked_at = \(PostgresContext.now(3))
                    WHERE revoked_at IS NULL AND \(condition) RETURNING id)
                SELECT c.n, pg_notify('\(PostgresChangeFeed.channel)', \(payload)) FROM (SELECT count(*) AS n FROM r) c
                WHERE c.n > 0
                """, parameters + [context.time(now)])
        ])
        return Int(try rows[0].first?.int64(0) ?? 0)
    }

    public func liveSessions(userID: String, now: Date, limit: Int, after: SessionPagePosition?)
        async throws(StoreError)
        -> [Session]
    {
        let rows = try await context.read([
            PostgresStatement(
                "sessions.live",
                """
                SELECT \(Self.columns) FROM sessions, (SELECT \(PostgresContext.now(2)) AS now) t
                WHERE user_id = $1 AND revoked_at IS NULL AND refresh_expires_at > t.now AND expires_at > t.now
                    AND ($3::bigint IS NULL OR last_used_at < $3::bigint OR (last_used_at = $3::bigint AND id > $4))
                ORDER BY last_used_at DESC, id
                LIMIT $5::bigint
                """,
                [
                    userID, context.time(now), after.map { String($0.lastUsedMilliseconds) }, after?.sessionID,
                    String(max(0, limit)),
                ])
        ])
        var sessions: [Session] = []
        for row in rows[0].rows { sessions.append(try Self.session(row)) }
        return sessions
    }

    public func find(sessionID: String) async throws(StoreError) -> Session? {
        let rows = try await context.read([
            PostgresStatement("sessions.find", "SELECT \(Self.columns) FROM sessions WHERE id = $1", [sessionID])
        ])
        return try rows[0].first.map(Self.session)
    }

    /// Deletes at most `limit` sessions that stopped being usable before `cutoff`. There is no index on the end
    /// (schema step 6 dropped it so rotations are HOT updates): each batch reads the table until it has `limit`
    /// rows, which the periodic purge can afford and the refresh path no longer pays for.
    @discardableResult
    public func purgeBatch(endedBefore cutoff: Date, limit: Int) async throws(StoreError) -> Int {
        let rows = try await context.write([
            PostgresStatement(
                "sessions.purge",
                """
                DELETE FROM sessions WHERE id IN (
                    SELECT id FROM sessions
                    WHERE least(coalesce(revoked_at, refresh_expires_at), refresh_expires_at) < $1::bigint
                    LIMIT $2::bigint)
                """, [String(cutoff.storeMilliseconds), String(max(0, limit))])
        ])
        return rows[0].affected
    }

    /// A session from a row of `columns`.
    static func session(_ row: PostgresRow) throws(StoreError) -> Session {
        Session(
            id: try row.string(0), userID: try row.string(1),
            createdAt: Date(storeMilliseconds: try row.int64(2)),
            lastUsedAt: Date(storeMilliseconds: try row.int64(3)),
            refreshExpiresAt: Date(storeMilliseconds: try row.int64(4)),
            expiresAt: Date(storeMilliseconds: try row.int64(5)),
            revokedAt: try row.optionalInt64(6).map { Date(storeMilliseconds: $0) },
            userAgent: try row.optionalString(7), ip: try row.optionalString(8), counter: try row.int64(9),
            rotatedAt: try row.optionalInt64(10).map { Date(storeMilliseconds: $0) },
            dpopThumbprint: try row.optionalString(11))
    }
}
