import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Each operation once, on a connection; `SessionStore` and `SessionStore+Async` pick the queue.
extension SessionStore {
    static func create(
        userID: String, userAgent: String?, ip: String?, now: Date, refreshTTL: Duration, maxLifetime: Duration,
        dpopThumbprint: String?, _ connection: Connection
    ) throws(StoreError) -> Session {
        // Checked in the same transaction, so a concurrent `disable` cannot leave a live session behind.
        guard let owner = try connection.queryOne("SELECT disabled_at FROM users WHERE id = ?", [.text(userID)]) else {
            throw .notFound
        }
        guard try owner.optionalInt64(0) == nil else { throw .userDisabled }
        let start = now.storeMilliseconds
        let cap = start.addingReportingOverflow(maxLifetime.storeMilliseconds).partialValue
        let refresh = min(start.addingReportingOverflow(refreshTTL.storeMilliseconds).partialValue, cap)
        let session = Session(
            id: UUID().uuidString.lowercased(), userID: userID, createdAt: Date(storeMilliseconds: start),
            lastUsedAt: Date(storeMilliseconds: start), refreshExpiresAt: Date(storeMilliseconds: refresh),
            expiresAt: Date(storeMilliseconds: cap), revokedAt: nil, userAgent: userAgent, ip: ip, counter: 0,
            rotatedAt: nil, dpopThumbprint: dpopThumbprint)
        try connection.execute(
            "INSERT INTO sessions (\(Session.columns)) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, 0, NULL, ?)",
            [
                .text(session.id), .text(userID), .integer(start), .integer(start), .integer(refresh), .integer(cap),
                SQLValue(userAgent), SQLValue(ip), SQLValue(dpopThumbprint),
            ])
        return session
    }

    static func rotate(
        sessionID: String, presentedCounter: Int64, now: Date, grace: Duration, refreshTTL: Duration,
        _ connection: Connection
    ) throws(StoreError) -> RotationOutcome {
        let time = now.storeMilliseconds
        guard
            let row = try connection.queryOne(
                """
                SELECT \(Session.columns), (SELECT disabled_at FROM users WHERE users.id = sessions.user_id)
                FROM sessions WHERE id = ?
                """,
                [.text(sessionID)])
        else { return .invalid }
        var session = try Session(row: row)
        let userDisabled = try row.optionalInt64(12) != nil
        switch Rotation.decide(
            session: session, presentedCounter: presentedCounter, userDisabled: userDisabled, now: now, grace: grace)
        {
        case .invalid:
            return .invalid
        case .converged:
            return .converged(session, counter: session.counter)
        case .revoke:
            _ = try revoke(sessionID: sessionID, userID: nil, now: now, connection)
            return .reuseDetected(sessionID: sessionID, userID: session.userID)
        case .rotate:
            let live = session.counter
            let refresh = min(
                time.addingReportingOverflow(refreshTTL.storeMilliseconds).partialValue,
                session.expiresAt.storeMilliseconds)
            let changed = try connection.execute(
                """
                UPDATE sessions SET counter = counter + 1, rotated_at = ?, last_used_at = ?, refresh_expires_at = ?
                WHERE id = ? AND counter = ?
                """,
                [.integer(time), .integer(time), .integer(refresh), .text(sessionID), .integer(live)])
            guard changed == 1 else { throw .misuse("session changed inside its own transaction") }
            session.counter = live + 1
            session.rotatedAt = Date(storeMilliseconds: time)
            session.lastUsedAt = Date(storeMilliseconds: time)
            session.refreshExpiresAt = Date(storeMilliseconds: refresh)
            return .rotated(session, counter: session.counter)
        }
    }

    static func revoke(sessionID: String, userID: String?, now: Date, _ connection: Connection) throws(StoreError)
        -> Int
    {
        try connection.execute(
            """
            UPDATE sessions SET revoked_at = ?
            WHERE id = ? AND revoked_at IS NULL AND (?3 IS NULL OR user_id = ?3)
            """,
            [.integer(now.storeMilliseconds), .text(sessionID), SQLValue(userID)])
    }

    static func revokeAll(userID: String, except: String?, now: Date, _ connection: Connection) throws(StoreError)
        -> Int
    {
        try connection.execute(
            """
            UPDATE sessions SET revoked_at = ?
            WHERE user_id = ? AND revoked_at IS NULL AND (?3 IS NULL OR id <> ?3)
            """,
            [.integer(now.storeMilliseconds), .text(userID), SQLValue(except)])
    }

    static func liveSessions(userID: String, now: Date, _ connection: Connection) throws(StoreError) -> [Session] {
        let time = SQLValue.integer(now.storeMilliseconds)
        var sessions: [Session] = []
        for row in try connection.query(
            """
            SELECT \(Session.columns) FROM sessions
            WHERE user_id = ? AND revoked_at IS NULL AND refresh_expires_at > ?2 AND expires_at > ?2
            ORDER BY last_used_at DESC, id
            """,
            [.text(userID), time])
        {
            sessions.append(try Session(row: row))
        }
        return sessions
    }

    static func find(_ sessionID: String, _ connection: Connection) throws(StoreError) -> Session? {
        try connection.queryOne("SELECT \(Session.columns) FROM sessions WHERE id = ?", [.text(sessionID)])
            .map(Session.init)
    }

    static func status(_ sessionID: String, _ connection: Connection) throws(StoreError) -> SessionStatus? {
        guard
            let row = try connection.queryOne(
                "SELECT user_id, revoked_at, expires_at, refresh_expires_at, dpop_jkt FROM sessions WHERE id = ?",
                [.text(sessionID)])
        else { return nil }
        return SessionStatus(
            userID: try row.string(0), revokedAt: try row.optionalInt64(1).map(Date.init(storeMilliseconds:)),
            expiresAt: Date(storeMilliseconds: try row.int64(2)),
            refreshExpiresAt: Date(storeMilliseconds: try row.int64(3)), dpopThumbprint: try row.optionalString(4))
    }
}
