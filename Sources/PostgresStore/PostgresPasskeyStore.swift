internal import Cryptography
public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Passkeys, the accounts' user handles and the ceremony challenges in PostgreSQL, with the results and errors of
/// `SQLitePasskeyStore`, shared by every instance of the deployment.
///
/// Single use across instances comes from one row-changing statement per decision: `consumeChallenge` is one
/// `DELETE … RETURNING` (of two instances consuming one challenge, one deletes it; the other waits for that commit
/// and finds none); `recordAssertion` is one conditional `UPDATE` (the second of two assertions with one counter
/// waits for the first's commit, re-reads the row under READ COMMITTED and finds the counter no longer lower).
/// `userHandle` sets the handle only while unset, then reads it in a statement of its own, so a racing call reads
/// the handle the other set. `issueChallenge` counts under an advisory lock (the cap holds across instances);
/// `deletePasskey` locks the account's row, so two deletions of an account's last two passkeys run one after
/// the other and the second keeps its passkey. None of these writes changes a session's status, so the status
/// caches stay.
public struct PostgresPasskeyStore: PasskeyStoring {
    let context: PostgresContext

    init(context: PostgresContext) {
        self.context = context
    }

    /// The columns a passkey is written with, in order.
    static let columns = """
        credential_id, user_id, public_key, algorithm, sign_count, backup_eligible, backed_up, transports, aaguid, \
        name, created_at, last_used_at
        """
    /// The columns `passkey(_:)` reads (the byte strings as hex, `Hex`: the pipeline speaks text).
    static let readColumns = """
        credential_id, user_id, encode(public_key, 'hex'), algorithm, sign_count, backup_eligible, backed_up, \
        transports, encode(aaguid, 'hex'), name, created_at, last_used_at
        """
    /// The placeholders of `columns` for `$1`…`$12` (`passkeyParameters`).
    static let values = """
        $1, $2, decode($3, 'hex'), $4::bigint, $5::bigint, $6::bigint, $7::bigint, $8, decode($9, 'hex'), $10, \
        $11::bigint, $12::bigint
        """
    /// The columns `challenge(_:)` reads and `issueChallenge` writes, in order.
    static let challengeColumns = "hash, ceremony, user_id, user_handle, email, expires_at"

    /// The class of the transaction-level advisory lock `issueChallenge` takes ("pkch").
    static let lockClass: Int32 = 0x706b_6368

    public func issueChallenge(
        _ challenge: PasskeyChallenge, maxPending: Int, now: Date
    ) async throws(StoreError) -> Bool {
        let statements: [PostgresStatement] = [
            .beginReadCommitted,
            PostgresStatement("passkeys.challengeLock", "SELECT pg_advisory_xact_lock(\(Self.lockClass), 0)"),
            PostgresStatement(
                "passkeys.issueChallenge",
                """
                INSERT INTO passkey_challenges (\(Self.challengeColumns))
                SELECT $1, $2, $3, $4, $5, $6::bigint
                WHERE (SELECT count(*) FROM passkey_challenges WHERE expires_at > \(PostgresContext.now(7)))
                    < $8::bigint
                ON CONFLICT (hash) DO NOTHING
                """,
                [
                    challenge.hash, challenge.ceremony.rawValue, challenge.userID, challenge.userHandle,
                    challenge.email, String(challenge.expiresAt.storeMilliseconds), context.time(now),
                    String(maxPending),
                ]),
            .commit,
        ]
        return try await context.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(statements, deadline: connection.deadline)[2].affected == 1
        }
    }

    public func consumeChallenge(hash: String, now: Date) async throws(StoreError) -> PasskeyChallenge? {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "passkeys.consumeChallenge",
                """
                DELETE FROM passkey_challenges WHERE hash = $1 AND expires_at > \(PostgresContext.now(2))
                RETURNING \(Self.challengeColumns)
                """, [hash, context.time(now)])
        ])
        return try rows[0].first.map(Self.challenge)
    }

    @discardableResult
    public func pruneChallenges(expiredBy now: Date) async throws(StoreError) -> Int {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "passkeys.pruneChallenges",
                "DELETE FROM passkey_challenges WHERE expires_at <= \(PostgresContext.now(1))", [context.time(now)])
        ])
        return rows[0].affected
    }

    public func userHandle(userID: String, proposing proposed: String) async throws(StoreError) -> String {
        // Most calls find the handle set: a read, no write.
        let read = try await context.read([Self.handle("passkeys.handle", userID: userID)])
        guard let row = read[0].first else { throw .notFound }
        if let stored = try row.optionalString(0) { return stored }
        // READ COMMITTED: the read after the conditional update takes a snapshot of its own, so it sees the
        // handle a racing call set (its update waited for that commit and then matched no row).
        let rows = try await context.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(
                [
                    .beginReadCommitted,
                    PostgresStatement(
                        "passkeys.setHandle",
                        "UPDATE users SET passkey_handle = $2 WHERE id = $1 AND passkey_handle IS NULL",
                        [userID, proposed]),
                    Self.handle("passkeys.handleAfterSet", userID: userID), .commit,
                ], deadline: connection.deadline)
        }
        guard let row = rows[2].first else { throw .notFound }
        guard let handle = try row.optionalString(0) else {
            throw .misuse("users.passkey_handle unset after setting it")
        }
        return handle
    }

    public func passkeys(userID: String) async throws(StoreError) -> [Passkey] {
        let rows = try await context.read([
            PostgresStatement(
                "passkeys.list",
                "SELECT \(Self.readColumns) FROM passkeys WHERE user_id = $1 ORDER BY created_at, credential_id",
                [userID])
        ])
        var passkeys: [Passkey] = []
        for row in rows[0].rows { passkeys.append(try Self.passkey(row)) }
        return passkeys
    }

    public func passkey(
        credentialID: String
    ) async throws(StoreError) -> (passkey: Passkey, user: User, userHandle: String)? {
        let rows = try await context.read([
            PostgresStatement(
                "passkeys.byID", "SELECT \(Self.readColumns) FROM passkeys WHERE credential_id = $1", [credentialID]),
            PostgresStatement(
                "passkeys.account",
                """
                SELECT \(PostgresUserStore.columns), passkey_handle FROM users
                WHERE id = (SELECT user_id FROM passkeys WHERE credential_id = $1)
                """, [credentialID]),
        ])
        guard let passkeyRow = rows[0].first else { return nil }
        guard let userRow = rows[1].first else { throw .misuse("passkeys.user_id names no user") }
        guard let handle = try userRow.optionalString(9) else {
            throw .misuse("a passkey's account has no users.passkey_handle")
        }
        return (try Self.passkey(passkeyRow), try PostgresUserStore.user(userRow), handle)
    }

    public func insertPasskey(_ passkey: Passkey) async throws(StoreError) -> Bool {
        do {
            let rows = try await context.writeCounters([
                PostgresStatement(
                    "passkeys.insert",
                    """
                    INSERT INTO passkeys (\(Self.columns)) VALUES (\(Self.values))
                    ON CONFLICT (credential_id) DO NOTHING
                    """, Self.parameters(passkey))
            ])
            return rows[0].affected == 1
        } catch .constraint(.foreignKey) {
            throw .notFound  // the only reference: the user
        }
    }

    public func createUser(_ user: User, userHandle: String, passkey: Passkey) async throws(StoreError) {
        var first = passkey
        first.userID = user.id
        // One pipeline, one implicit transaction: a failing step rolls back those before it. Each step's
        // constraint names its error: the user's email (`.emailTaken`) or id (`.constraint(.primaryKey)`), the
        // handle (`.constraint(.unique)`), the credential id (`.constraint(.primaryKey)`).
        _ = try await context.writeCounters([
            PostgresStatement(
                "passkeys.createUser",
                """
                INSERT INTO users (\(PostgresUserStore.columns))
                VALUES ($1, $2, NULL, $3, $4, NULL, $5::bigint, $6::bigint, $7)
                """,
                [
                    user.id, user.email, user.role, user.tenantID, String(user.createdAt.storeMilliseconds),
                    user.emailVerifiedAt.map { String($0.storeMilliseconds) }, user.emailVerifiedBy?.storedValue,
                ]),
            PostgresStatement(
                "passkeys.createHandle", "UPDATE users SET passkey_handle = $2 WHERE id = $1", [user.id, userHandle]),
            PostgresStatement(
                "passkeys.createPasskey", "INSERT INTO passkeys (\(Self.columns)) VALUES (\(Self.values))",
                Self.parameters(first)),
        ])
    }

    public func recordAssertion(
        credentialID: String, signCount: UInt32, backedUp: Bool, now: Date
    ) async throws(StoreError) -> Bool {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "passkeys.recordAssertion",
                """
                UPDATE passkeys SET sign_count = $2::bigint, backed_up = $3::bigint,
                    last_used_at = \(PostgresContext.now(4))
                WHERE credential_id = $1 AND (sign_count < $2::bigint OR (sign_count = 0 AND $2::bigint = 0))
                """, [credentialID, String(signCount), backedUp ? "1" : "0", context.time(now)])
        ])
        return rows[0].affected == 1
    }

    public func renamePasskey(credentialID: String, userID: String, name: String) async throws(StoreError) -> Passkey? {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "passkeys.rename",
                """
                UPDATE passkeys SET name = $3 WHERE credential_id = $1 AND user_id = $2 RETURNING \(Self.readColumns)
                """, [credentialID, userID, name])
        ])
        return try rows[0].first.map(Self.passkey)
    }

    public func deletePasskey(
        credentialID: String, userID: String, emailSignIn: Bool
    ) async throws(StoreError) -> PasskeyDeletion {
        // The account's row lock orders concurrent deletions of its passkeys; under READ COMMITTED the delete
        // after it sees what the one before committed.
        let statements: [PostgresStatement] = [
            .beginReadCommitted,
            PostgresStatement("passkeys.deleteLock", "SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE", [userID]),
            PostgresStatement(
                "passkeys.delete",
                """
                DELETE FROM passkeys WHERE credential_id = $1 AND user_id = $2 AND EXISTS (
                    SELECT 1 FROM users WHERE id = $2 AND (password_hash IS NOT NULL
                        OR ($3::boolean AND email IS NOT NULL)
                        OR EXISTS (SELECT 1 FROM identities WHERE identities.user_id = $2)
                        OR EXISTS (SELECT 1 FROM passkeys AS other
                            WHERE other.user_id = $2 AND other.credential_id <> $1)))
                """, [credentialID, userID, emailSignIn ? "true" : "false"]),
            PostgresStatement(
                "passkeys.deleteKept", "SELECT count(*) FROM passkeys WHERE credential_id = $1 AND user_id = $2",
                [credentialID, userID]),
            .commit,
        ]
        let rows = try await context.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(statements, deadline: connection.deadline)
        }
        if rows[2].affected == 1 { return .deleted }
        return try rows[3].first?.int64(0) == 1 ? .lastSignInMethod : .notFound
    }

    public func allPasskeys() async throws(StoreError) -> [(passkey: Passkey, userHandle: String)] {
        let rows = try await context.read([
            PostgresStatement(
                "passkeys.all",
                """
                SELECT \(Self.readColumns), (SELECT passkey_handle FROM users WHERE users.id = passkeys.user_id)
                FROM passkeys ORDER BY created_at, credential_id
                """)
        ])
        var passkeys: [(passkey: Passkey, userHandle: String)] = []
        for row in rows[0].rows {
            guard let handle = try row.optionalString(12) else {
                throw .misuse("a passkey's account has no users.passkey_handle")
            }
            passkeys.append((try Self.passkey(row), handle))
        }
        return passkeys
    }

    /// Reads the handle of account `userID` (one row, NULL while unset; no row for an unknown account).
    static func handle(_ name: String, userID: String) -> PostgresStatement {
        PostgresStatement(name, "SELECT passkey_handle FROM users WHERE id = $1", [userID])
    }

    /// The parameters of `values` for `passkey`.
    static func parameters(_ passkey: Passkey) -> [String?] {
        [
            passkey.credentialID, passkey.userID, Hex.encode(passkey.publicKey), String(passkey.algorithm),
            String(passkey.signCount), passkey.backupEligible ? "1" : "0", passkey.backedUp ? "1" : "0",
            passkey.storedTransports, Hex.encode(passkey.aaguid), passkey.name,
            String(passkey.createdAt.storeMilliseconds), passkey.lastUsedAt.map { String($0.storeMilliseconds) },
        ]
    }

    /// A passkey from a row of `readColumns`.
    static func passkey(_ row: PostgresRow) throws(StoreError) -> Passkey {
        guard let publicKey = Hex.decode(try row.string(2)), let aaguid = Hex.decode(try row.string(8)) else {
            throw .misuse("passkeys.public_key or aaguid read back not as hex")
        }
        guard let signCount = UInt32(exactly: try row.int64(4)), let algorithm = Int(exactly: try row.int64(3)) else {
            throw .misuse("passkeys.sign_count or algorithm out of range")
        }
        return Passkey(
            credentialID: try row.string(0), userID: try row.string(1), publicKey: publicKey, algorithm: algorithm,
            signCount: signCount, backupEligible: try row.int64(5) != 0, backedUp: try row.int64(6) != 0,
            transports: Passkey.transports(stored: try row.string(7)), aaguid: aaguid, name: try row.string(9),
            createdAt: Date(storeMilliseconds: try row.int64(10)),
            lastUsedAt: try row.optionalInt64(11).map(Date.init(storeMilliseconds:)))
    }

    /// A challenge from a row of `challengeColumns`.
    static func challenge(_ row: PostgresRow) throws(StoreError) -> PasskeyChallenge {
        guard let ceremony = PasskeyChallenge.Ceremony(rawValue: try row.string(1)) else {
            throw .misuse("passkey_challenges.ceremony unknown")
        }
        return PasskeyChallenge(
            hash: try row.string(0), ceremony: ceremony, userID: try row.optionalString(2),
            userHandle: try row.optionalString(3), email: try row.optionalString(4),
            expiresAt: Date(storeMilliseconds: try row.int64(5)))
    }
}
