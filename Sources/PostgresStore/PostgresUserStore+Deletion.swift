public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// Account deletion (issue 33), as `UserStore` does it on SQLite: one transaction that locks the user row first (a
// second deletion of the same user waits, then finds nothing and changes nothing), and notifies
// `tokenvend_sessions` so every instance's status cache drops its answers for the deleted sessions at once.
extension PostgresUserStore {
    @discardableResult
    public func deleteUser(
        userID: String, method: AccountDeletionMethod, now: Date
    ) async throws(StoreError) -> DeletedAccount {
        // READ COMMITTED: each statement after the lock sees what a deletion that held it before committed.
        let email = "(SELECT email FROM users WHERE id = $1)"
        let statements: [PostgresStatement] = [
            .beginReadCommitted,
            PostgresStatement("users.deleteLock", "SELECT id FROM users WHERE id = $1 FOR UPDATE", [userID]),
            PostgresStatement(
                "users.deleteRevocations",
                """
                INSERT INTO outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at)
                SELECT gen_random_uuid()::text, $2, provider, refresh_token, 0, t.now, t.now
                FROM identities, (SELECT \(PostgresContext.now(3)) AS now) t
                WHERE user_id = $1 AND refresh_token IS NOT NULL
                """, [userID, OutboxJobKind.providerTokenRevocation, context.time(now)]),
            // Nothing more goes to the address and nothing keeps it: its messages (given-up ones too), the codes
            // sent to it or kept under it without naming the user, its failed-login counters.
            PostgresStatement(
                "users.deleteMessages", "DELETE FROM outbox WHERE recipient = \(email) AND kind <> $2",
                [userID, OutboxJobKind.providerTokenRevocation]),
            PostgresStatement(
                "users.deleteCodes",
                "DELETE FROM email_codes WHERE email = \(email) OR subject = \(email)", [userID]),
            PostgresStatement("users.deleteCounters", "DELETE FROM rate_limits WHERE key = \(email)", [userID]),
            // Identities, customer ids, sessions, email codes and browser sign-in codes go with it (ON DELETE
            // CASCADE).
            PostgresStatement(
                "users.delete",
                """
                WITH t AS (SELECT \(PostgresContext.now(3)) AS now),
                d AS (DELETE FROM users WHERE id = $1 RETURNING id),
                r AS (
                    INSERT INTO deleted_accounts (user_id, deleted_at, method) SELECT d.id, t.now, $2 FROM d, t
                    ON CONFLICT (user_id) DO UPDATE SET deleted_at = EXCLUDED.deleted_at, method = EXCLUDED.method
                    RETURNING deleted_at)
                SELECT r.deleted_at, pg_notify('\(PostgresChangeFeed.channel)', $1) FROM r
                """, [userID, method.rawValue, context.time(now)]),
            .commit,
        ]
        let rows = try await context.transaction { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(statements, deadline: connection.deadline)
        }
        guard let row = rows[6].first else { throw .notFound }
        return DeletedAccount(userID: userID, deletedAt: Date(storeMilliseconds: try row.int64(0)), method: method)
    }

    public func deletedAccounts() async throws(StoreError) -> [DeletedAccount] {
        let rows = try await context.read([
            PostgresStatement(
                "users.deletedAccounts",
                "SELECT user_id, deleted_at, method FROM deleted_accounts ORDER BY deleted_at, user_id")
        ])
        var records: [DeletedAccount] = []
        for row in rows[0].rows {
            records.append(
                try DeletedAccount(
                    userID: try row.string(0), deletedAtMilliseconds: try row.int64(1), storedMethod: try row.string(2))
            )
        }
        return records
    }
}
