public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// Account deletion (issue 33), one write transaction: the commit counter it moves ends every kept session status,
// in this process and in any other on the file, so the deleted sessions answer absent at once. `secure_delete`
// (set on every connection) overwrites the freed cells with zeros.
extension UserStore {
    /// See `UserStoring.deleteUser(userID:method:now:)`.
    @discardableResult
    public func deleteUser(
        userID: String, method: AccountDeletionMethod, now: Date
    ) async throws(StoreError) -> DeletedAccount {
        let record = DeletedAccount(
            userID: userID, deletedAt: Date(storeMilliseconds: now.storeMilliseconds), method: method)
        return try await database.write { (connection: Connection) throws(StoreError) -> DeletedAccount in
            try Self.delete(record, connection)
            return record
        }
    }

    /// See `UserStoring.deletedAccounts()`.
    public func deletedAccounts() async throws(StoreError) -> [DeletedAccount] {
        try await database.read { (connection: Connection) throws(StoreError) -> [DeletedAccount] in
            try Self.deletedAccounts(connection)
        }
    }

    /// Every record, oldest first.
    static func deletedAccounts(_ connection: Connection) throws(StoreError) -> [DeletedAccount] {
        var records: [DeletedAccount] = []
        for row in try connection.query(
            "SELECT user_id, deleted_at, method FROM deleted_accounts ORDER BY deleted_at, user_id")
        {
            records.append(
                try DeletedAccount(
                    userID: try row.string(0), deletedAtMilliseconds: try row.int64(1), storedMethod: try row.string(2))
            )
        }
        return records
    }

    /// Deletes `record.userID` and keeps `record`, on `connection` inside the caller's transaction.
    /// - Throws: `.notFound` for an unknown user.
    static func delete(_ record: DeletedAccount, _ connection: Connection) throws(StoreError) {
        let user = SQLValue.text(record.userID)
        let time = SQLValue.integer(record.deletedAt.storeMilliseconds)
        guard let email = try connection.queryOne("SELECT email FROM users WHERE id = ?", [user]) else {
            throw .notFound
        }
        // The provider tokens to revoke, each its own outbox row (ids made here: `body` may run twice, and a
        // second run makes new ones, which is all the same).
        for row in try connection.query(
            """
            SELECT provider, refresh_token FROM identities WHERE user_id = ? AND refresh_token IS NOT NULL
            ORDER BY created_at, provider, subject
            """, [user])
        {
            try connection.execute(
                """
                INSERT INTO outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at)
                VALUES (?, ?, ?, ?, 0, ?, ?)
                """,
                [
                    .text(UUID().uuidString.lowercased()), .text(OutboxJobKind.providerTokenRevocation),
                    .text(try row.string(0)), try row.value(1), time, time,
                ])
        }
        if let address = try email.optionalString(0) {
            // Nothing more goes to the address, and nothing keeps it: its messages (given up ones too), and the
            // codes sent to it or kept under it without naming the user (a sign-in or reset code).
            try connection.execute(
                "DELETE FROM outbox WHERE recipient = ? AND kind <> ?",
                [.text(address), .text(OutboxJobKind.providerTokenRevocation)])
            try connection.execute("DELETE FROM email_codes WHERE email = ?1 OR subject = ?1", [.text(address)])
        }
        // Identities, customer ids, sessions, email codes and browser sign-in codes go with it (ON DELETE CASCADE).
        try connection.execute("DELETE FROM users WHERE id = ?", [user])
        try connection.execute(
            """
            INSERT INTO deleted_accounts (user_id, deleted_at, method) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET deleted_at = excluded.deleted_at, method = excluded.method
            """, [user, time, .text(record.method.rawValue)])
    }
}
