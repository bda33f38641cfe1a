public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// What the email-code flows change on an account (issue 32), as `UserStore` does it on SQLite. Each statement
// notifies `tokenvend_sessions` in its own transaction, as `disable` does, so every instance's status cache drops
// its answers (a revoked session, a verified email that becomes a customer id).
extension PostgresUserStore {
    public func markEmailVerified(
        userID: String, source: EmailVerificationSource, now: Date
    ) async throws(StoreError) -> User {
        let rows = try await context.write([
            PostgresStatement(
                "users.markEmailVerified.id",
                """
                WITH u AS (
                    UPDATE users SET
                        email_verified_at = CASE WHEN email IS NULL THEN NULL
                            ELSE coalesce(email_verified_at, \(PostgresContext.now(3))) END,
                        email_verified_by = CASE WHEN email IS NULL THEN NULL ELSE $2 END
                    WHERE id = $1 RETURNING \(Self.columns))
                SELECT u.*, pg_notify('\(PostgresChangeFeed.channel)', u.id) FROM u
                """, [userID, source.storedValue, context.time(now)])
        ])
        guard let row = rows[0].first else { throw .notFound }
        return try Self.user(row)
    }

    public func changeEmail(userID: String, to email: String, now: Date) async throws(StoreError) -> User {
        let rows = try await context.write([
            PostgresStatement(
                "users.changeEmail",
                """
                WITH u AS (
                    UPDATE users SET email = $2, email_verified_at = \(PostgresContext.now(3)), email_verified_by = $4
                    WHERE id = $1 RETURNING \(Self.columns))
                SELECT u.*, pg_notify('\(PostgresChangeFeed.channel)', u.id) FROM u
                """, [userID, email, context.time(now), EmailVerificationSource.emailCode.storedValue])
        ])
        guard let row = rows[0].first else { throw .notFound }
        return try Self.user(row)
    }

    @discardableResult
    public func replacePassword(
        userID: String, hash: String, keeping sessionID: String?, now: Date
    ) async throws(StoreError) -> Int {
        // One statement, one transaction: the hash and the revocations commit together, with the notification.
        let rows = try await context.write([
            PostgresStatement(
                "users.replacePassword",
                """
                WITH t AS (SELECT \(PostgresContext.now(4)) AS now),
                u AS (UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id),
                r AS (
                    UPDATE sessions SET revoked_at = t.now FROM u, t
                    WHERE sessions.user_id = u.id AND sessions.revoked_at IS NULL
                        AND sessions.id IS DISTINCT FROM $3
                    RETURNING sessions.id)
                SELECT (SELECT count(*) FROM r), pg_notify('\(PostgresChangeFeed.channel)', u.id) FROM u
                """, [userID, hash, sessionID, context.time(now)])
        ])
        guard let row = rows[0].first else { throw .notFound }
        return Int(try row.int64(0))
    }
}
