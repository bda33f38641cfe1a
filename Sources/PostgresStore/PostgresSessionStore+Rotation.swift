public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension PostgresSessionStore {
    /// Decides a refresh in one transaction that holds the session row, with the rules of `SessionStore.rotate`.
    ///
    /// Two round trips, each one pipeline: (1) `BEGIN`, `SET LOCAL lock_timeout`, `SELECT … FOR UPDATE` of the
    /// session, then — as a separate statement, so after the lock is held — the time (the database's
    /// `clock_timestamp()` unless the store uses the caller's clock) and the user's disabled flag; (2) the
    /// decision's `UPDATE` (and `pg_notify` for a detected reuse) with `COMMIT`. Racing rotations of one token,
    /// from any instance, queue on the row lock, so exactly one rotates and the others see its result.
    /// - Throws: `.unavailable(.lockTimeout)` when the row stays locked past `lockTimeout`, other `.unavailable`
    ///   cases when the database is unreachable or slow.
    public func rotate(
        sessionID: String, presentedCounter: Int64, now: Date, grace: Duration, refreshTTL: Duration
    ) async throws(StoreError) -> RotationOutcome {
        let time = context.time(now)
        let lockTimeout = "SET LOCAL lock_timeout = '\(max(1, context.lockTimeout.milliseconds))ms'"
        let graceMilliseconds = grace.milliseconds
        let ttl = refreshTTL.milliseconds
        return try await context.transaction { (connection: PostgresConnection) throws(StoreError) -> RotationOutcome in
            let read = try connection.run(
                [
                    .begin, PostgresStatement(unprepared: lockTimeout),
                    PostgresStatement(
                        "sessions.rotateLock", "SELECT \(Self.columns) FROM sessions WHERE id = $1 FOR UPDATE",
                        [sessionID]),
                    PostgresStatement(
                        "sessions.rotateClock",
                        """
                        SELECT \(PostgresContext.now(2)),
                            (SELECT disabled_at IS NOT NULL FROM users
                             WHERE id = (SELECT user_id FROM sessions WHERE id = $1))
                        """, [sessionID, time]),
                ], deadline: connection.deadline)
            guard let row = read[2].first, let clock = read[3].first else {
                _ = try connection.run([.commit], deadline: connection.deadline)
                return .invalid
            }
            var session = try Self.session(row)
            let milliseconds = try clock.int64(0)
            let userDisabled = try clock.optionalString(1) == "t"
            let current = Date(postgresMilliseconds: milliseconds)
            let decision = Rotation.decide(
                session: session, presentedCounter: presentedCounter, now: current, milliseconds: milliseconds,
                userDisabled: userDisabled, graceMilliseconds: graceMilliseconds)
            switch decision {
            case .invalid, .converged:
                _ = try connection.run([.commit], deadline: connection.deadline)
                return decision == .invalid ? .invalid : .converged(session, counter: session.counter)
            case .rotate:
                let refresh = min(
                    milliseconds.addingReportingOverflow(ttl).partialValue, session.expiresAt.postgresMilliseconds)
                let written = try connection.run(
                    [
                        PostgresStatement(
                            "sessions.rotate",
                            """
                            UPDATE sessions
                            SET counter = counter + 1, rotated_at = $2::bigint, last_used_at = $2::bigint,
                                refresh_expires_at = $3::bigint
                            WHERE id = $1 AND counter = $4::bigint
                            """,
                            [sessionID, String(milliseconds), String(refresh), String(session.counter)]),
                        .commit,
                    ], deadline: connection.deadline)
                guard written[0].affected == 1 else { throw .misuse("session changed inside its own transaction") }
                session.counter += 1
                session.rotatedAt = current
                session.lastUsedAt = current
                session.refreshExpiresAt = Date(postgresMilliseconds: refresh)
                return .rotated(session, counter: session.counter)
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
                            """, [sessionID, String(milliseconds)]),
                        .commit,
                    ], deadline: connection.deadline)
                return .reuseDetected(sessionID: sessionID, userID: session.userID)
            }
        }
    }
}

/// The rotation rules of `SessionStore.rotate`, on values read under the row lock.
enum Rotation: Equatable {
    case invalid, rotate, converged, revoke

    static func decide(
        session: Session, presentedCounter: Int64, now: Date, milliseconds: Int64, userDisabled: Bool,
        graceMilliseconds: Int64
    ) -> Rotation {
        guard !userDisabled, session.isLive(at: now), presentedCounter >= 0 else { return .invalid }
        let live = session.counter
        if presentedCounter == live { return .rotate }
        if presentedCounter > live { return .invalid }
        if presentedCounter == live - 1, graceMilliseconds > 0, let rotatedAt = session.rotatedAt,
            milliseconds - rotatedAt.postgresMilliseconds <= graceMilliseconds
        {
            return .converged
        }
        return .revoke
    }
}
