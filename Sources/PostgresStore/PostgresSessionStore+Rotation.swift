public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension PostgresSessionStore {
    /// Decides a refresh in one transaction that holds the session row, with the rules of `Rotation.decide`;
    /// see `rotateReadingUser`.
    /// - Throws: as `rotateReadingUser`.
    public func rotate(
        sessionID: String, presentedCounter: Int64, now: Date, grace: Duration, refreshTTL: Duration
    ) async throws(StoreError) -> RotationOutcome {
        try await rotateReadingUser(
            sessionID: sessionID, presentedCounter: presentedCounter, now: now, grace: grace, refreshTTL: refreshTTL
        ).outcome
    }

    /// Decides a refresh in one transaction that holds the session row, with the rules of `Rotation.decide`,
    /// and answers the session's user as read under the lock.
    ///
    /// One round trip, one pipeline: `BEGIN`, `SET LOCAL lock_timeout`, `SELECT … FOR UPDATE` of the session,
    /// then — as a separate statement, so after the lock is held — the time (the database's `clock_timestamp()`
    /// unless the store uses the caller's clock), the user, and the `.rotated` case as a conditional `UPDATE`
    /// (presented counter = live counter, session live, user enabled), then `COMMIT`. Every other outcome is
    /// decided from the same locked reads: `.invalid` and `.converged` write nothing; `.revoke` writes after the
    /// commit, in a second round trip (`UPDATE … WHERE revoked_at IS NULL` with `pg_notify`) — safe without the
    /// lock, because a counter once spent stays spent and a grace window once over stays over. Racing rotations
    /// of one token, from any instance, queue on the row lock, so exactly one rotates and the others see its
    /// result.
    /// - Throws: `.unavailable(.lockTimeout)` when the row stays locked past `lockTimeout`, other `.unavailable`
    ///   cases when the database is unreachable or slow.
    public func rotateReadingUser(
        sessionID: String, presentedCounter: Int64, now: Date, grace: Duration, refreshTTL: Duration
    ) async throws(StoreError) -> RotationResult {
        let time = context.time(now)
        let lockTimeout = "SET LOCAL lock_timeout = '\(max(1, context.lockTimeout.storeMilliseconds))ms'"
        let ttl = refreshTTL.sqlMilliseconds
        return try await context.transaction { (connection: PostgresConnection) throws(StoreError) -> RotationResult in
            let read = try connection.run(
                [
                    .begin, PostgresStatement(unprepared: lockTimeout),
                    PostgresStatement(
                        "sessions.rotateLock", "SELECT \(Self.columns) FROM sessions WHERE id = $1 FOR UPDATE",
                        [sessionID]),
                    PostgresStatement(
                        "sessions.rotateDecide", Self.rotateSQL, [sessionID, time, String(presentedCounter), ttl]),
                    .commit,
                ], deadline: connection.deadline)
            guard let row = read[2].first, let decided = read[3].first else {
                return RotationResult(outcome: .invalid, user: nil)
            }
            var session = try Self.session(row)
            let user = try decided.optionalString(0) == nil ? nil : try PostgresUserStore.user(decided)
            let milliseconds = try decided.int64(Self.userColumnCount)
            let current = Date(storeMilliseconds: milliseconds)
            if let refresh = try decided.optionalInt64(Self.userColumnCount + 1) {
                session.counter += 1
                session.rotatedAt = current
                session.lastUsedAt = current
                session.refreshExpiresAt = Date(storeMilliseconds: refresh)
                return RotationResult(outcome: .rotated(session, counter: session.counter), user: user)
            }
            let decision = Rotation.decide(
                session: session, presentedCounter: presentedCounter, userDisabled: user?.isDisabled ?? false,
                now: current, grace: grace)
            switch decision {
            case .invalid:
                return RotationResult(outcome: .invalid, user: nil)
            case .converged:
                return RotationResult(outcome: .converged(session, counter: session.counter), user: user)
            case .rotate:
                throw .misuse("the rotation's update and its rules disagree")
            case .revoke:
                _ = try connection.run(
                    [
                        PostgresStatement(
                            "sessions.rotateRevoke",
                            """
                            WITH r AS (
                                UPDATE sessions SET revoked_at = $2::bigint
                                WHERE id = $1 AND revoked_at IS NULL RETURNING id)
                            SELECT pg_notify('\(PostgresChangeFeed.channel)', r.id) FROM r
                            """, [sessionID, String(milliseconds)])
                    ], deadline: connection.deadline)
                return RotationResult(outcome: .reuseDetected(sessionID: sessionID, userID: session.userID), user: nil)
            }
        }
    }

    /// How many columns `PostgresUserStore.columns` has (the rotation's decision row starts with them).
    static let userColumnCount = 9

    /// The rotation's decision, run after the row lock is held: the user (`PostgresUserStore.columns`, NULL for
    /// none), the time in milliseconds, and the new refresh expiry when the `.rotated` case applied (else NULL).
    /// $1 session id, $2 the caller's time or NULL, $3 the presented counter, $4 the refresh TTL in milliseconds.
    /// The `UPDATE`'s conditions are `Rotation.decide`'s `.rotate` case (`Session.isLive`: now before both expiries).
    static let rotateSQL = """
        WITH t AS (SELECT \(PostgresContext.now(2)) AS now),
        r AS (
            UPDATE sessions s
            SET counter = s.counter + 1, rotated_at = t.now, last_used_at = t.now,
                refresh_expires_at = least(t.now + $4::bigint, s.expires_at)
            FROM t
            WHERE s.id = $1 AND s.counter = $3::bigint AND $3::bigint >= 0 AND s.revoked_at IS NULL
                AND t.now < s.refresh_expires_at AND t.now < s.expires_at
                AND EXISTS (SELECT 1 FROM users WHERE users.id = s.user_id AND users.disabled_at IS NULL)
            RETURNING s.refresh_expires_at)
        SELECT \(PostgresUserStore.columns.split(separator: ", ").map { "u.\($0)" }.joined(separator: ", ")),
            t.now, (SELECT refresh_expires_at FROM r)
        FROM t LEFT JOIN sessions s ON s.id = $1 LEFT JOIN users u ON u.id = s.user_id
        """
}
