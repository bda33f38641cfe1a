public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Passkeys, the accounts' user handles and the ceremony challenges in SQLite (see `PasskeyStoring`).
///
/// Every write runs on the database's single writer (one transaction each, group-committed), so a check and the
/// change it guards (the challenge cap, the last sign-in method) cannot interleave with another request's; each
/// single-use decision (consume a challenge, record an assertion) is one row-changing statement.
public struct SQLitePasskeyStore: PasskeyStoring {
    /// The database the passkeys live in.
    public let database: Database

    /// Creates a store over `database`.
    public init(database: Database) {
        self.database = database
    }

    public func issueChallenge(
        _ challenge: PasskeyChallenge, maxPending: Int, now: Date
    ) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                """
                INSERT INTO passkey_challenges (\(PasskeyChallenge.columns))
                SELECT ?, ?, ?, ?, ?, ?
                WHERE (SELECT count(*) FROM passkey_challenges WHERE expires_at > ?) < ?
                ON CONFLICT (hash) DO NOTHING
                """, challenge.bindings + [.integer(now.storeMilliseconds), .integer(Int64(maxPending))]) == 1
        }
    }

    public func consumeChallenge(hash: String, now: Date) async throws(StoreError) -> PasskeyChallenge? {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.queryOne(
                """
                DELETE FROM passkey_challenges WHERE hash = ? AND expires_at > ?
                RETURNING \(PasskeyChallenge.columns)
                """, [.text(hash), .integer(now.storeMilliseconds)]
            ).map(PasskeyChallenge.init(row:))
        }
    }

    @discardableResult
    public func pruneChallenges(expiredBy now: Date) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                "DELETE FROM passkey_challenges WHERE expires_at <= ?", [.integer(now.storeMilliseconds)])
        }
    }

    public func userHandle(userID: String, proposing proposed: String) async throws(StoreError) -> String {
        // Most calls find the handle set: a read, no write.
        let stored = try await database.read { (connection: Connection) throws(StoreError) in
            try Self.handle(userID: userID, connection)
        }
        if let stored { return stored }
        return try await database.write { (connection: Connection) throws(StoreError) in
            // Set only while unset, then read what is stored: a racing call that set it first wins.
            try connection.execute(
                "UPDATE users SET passkey_handle = ? WHERE id = ? AND passkey_handle IS NULL",
                [.text(proposed), .text(userID)])
            guard let handle = try Self.handle(userID: userID, connection) else {
                throw .misuse("users.passkey_handle unset after setting it")
            }
            return handle
        }
    }

    public func passkeys(userID: String) async throws(StoreError) -> [Passkey] {
        try await database.read { (connection: Connection) throws(StoreError) in
            try connection.query(
                "SELECT \(Passkey.columns) FROM passkeys WHERE user_id = ? ORDER BY created_at, credential_id",
                [.text(userID)]
            ).map { (row: Row) throws(StoreError) in try Passkey(row: row) }
        }
    }

    public func passkey(
        credentialID: String
    ) async throws(StoreError) -> (passkey: Passkey, user: User, userHandle: String)? {
        try await database.read {
            (connection: Connection) throws(StoreError) -> (passkey: Passkey, user: User, userHandle: String)? in
            guard
                let passkey = try connection.queryOne(
                    "SELECT \(Passkey.columns) FROM passkeys WHERE credential_id = ?", [.text(credentialID)]
                ).map(Passkey.init(row:))
            else { return nil }
            guard let user = try UserStore.find(id: passkey.userID, connection) else {
                throw .misuse("passkeys.user_id names no user")
            }
            guard let handle = try Self.handle(userID: user.id, connection) else {
                throw .misuse("a passkey's account has no users.passkey_handle")
            }
            return (passkey, user, handle)
        }
    }

    public func insertPasskey(_ passkey: Passkey) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.insert(passkey, connection)
        }
    }

    public func createUser(_ user: User, userHandle: String, passkey: Passkey) async throws(StoreError) {
        var account = user
        account.passwordHash = nil
        var first = passkey
        first.userID = user.id
        try await database.write { [account, first] (connection: Connection) throws(StoreError) in
            // Each step's constraint names its error: the email (`.emailTaken`) or id (`.constraint(.primaryKey)`)
            // of the user, the handle (`.constraint(.unique)`), the credential id (`.constraint(.primaryKey)`).
            try UserStore.insert(account, connection)
            try connection.execute(
                "UPDATE users SET passkey_handle = ? WHERE id = ?", [.text(userHandle), .text(account.id)])
            try connection.execute(
                "INSERT INTO passkeys (\(Passkey.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", first.bindings)
        }
    }

    public func recordAssertion(
        credentialID: String, signCount: UInt32, backedUp: Bool, now: Date
    ) async throws(StoreError) -> Bool {
        // One conditional statement: of two assertions with the same non-zero counter, the second finds the
        // stored counter no longer lower.
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                """
                UPDATE passkeys SET sign_count = ?1, backed_up = ?2, last_used_at = ?3
                WHERE credential_id = ?4 AND (sign_count < ?1 OR (sign_count = 0 AND ?1 = 0))
                """,
                [
                    .integer(Int64(signCount)), .integer(backedUp ? 1 : 0), .integer(now.storeMilliseconds),
                    .text(credentialID),
                ]) == 1
        }
    }

    public func renamePasskey(credentialID: String, userID: String, name: String) async throws(StoreError) -> Passkey? {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.queryOne(
                """
                UPDATE passkeys SET name = ? WHERE credential_id = ? AND user_id = ? RETURNING \(Passkey.columns)
                """, [.text(name), .text(credentialID), .text(userID)]
            ).map(Passkey.init(row:))
        }
    }

    public func deletePasskey(
        credentialID: String, userID: String, emailSignIn: Bool
    ) async throws(StoreError) -> PasskeyDeletion {
        try await database.write { (connection: Connection) throws(StoreError) -> PasskeyDeletion in
            let deleted = try connection.execute(
                "DELETE FROM passkeys WHERE credential_id = ?1 AND user_id = ?2 AND \(Self.otherWayIn)",
                [.text(credentialID), .text(userID), .integer(emailSignIn ? 1 : 0)])
            if deleted == 1 { return .deleted }
            let exists = try connection.queryOne(
                "SELECT 1 FROM passkeys WHERE credential_id = ? AND user_id = ?", [.text(credentialID), .text(userID)])
            return exists == nil ? .notFound : .lastSignInMethod
        }
    }

    public func allPasskeys() async throws(StoreError) -> [(passkey: Passkey, userHandle: String)] {
        try await database.read { (connection: Connection) throws(StoreError) in
            try Self.allPasskeys(connection)
        }
    }

    /// Whether account `?2` keeps a way to sign in without passkey `?1` (SQL over `?1`, `?2` and `?3`, whether
    /// email-code sign-in is on): a password, a linked identity, another passkey, or an email with email-code
    /// sign-in on.
    static let otherWayIn = """
        EXISTS (SELECT 1 FROM users WHERE id = ?2 AND (password_hash IS NOT NULL OR (?3 AND email IS NOT NULL)
            OR EXISTS (SELECT 1 FROM identities WHERE identities.user_id = ?2)
            OR EXISTS (SELECT 1 FROM passkeys AS other WHERE other.user_id = ?2 AND other.credential_id <> ?1)))
        """

    /// The stored handle of `userID`, nil while unset.
    /// - Throws: `.notFound` for an unknown account.
    static func handle(userID: String, _ connection: Connection) throws(StoreError) -> String? {
        guard let row = try connection.queryOne("SELECT passkey_handle FROM users WHERE id = ?", [.text(userID)])
        else { throw .notFound }
        return try row.optionalString(0)
    }

    /// Inserts `passkey` unless its credential id is stored; false then.
    /// - Throws: `.notFound` for an unknown account.
    static func insert(_ passkey: Passkey, _ connection: Connection) throws(StoreError) -> Bool {
        do {
            return try connection.execute(
                """
                INSERT INTO passkeys (\(Passkey.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (credential_id) DO NOTHING
                """, passkey.bindings) == 1
        } catch .constraint(.foreignKey) {
            throw .notFound  // the only reference: the user
        }
    }

    /// Every passkey with its account's handle, oldest first (ties by credential id).
    static func allPasskeys(_ connection: Connection) throws(StoreError) -> [(passkey: Passkey, userHandle: String)] {
        try connection.query(
            """
            SELECT \(Passkey.columns), (SELECT passkey_handle FROM users WHERE users.id = passkeys.user_id)
            FROM passkeys ORDER BY created_at, credential_id
            """
        ).map { (row: Row) throws(StoreError) -> (passkey: Passkey, userHandle: String) in
            guard let handle = try row.optionalString(Passkey.columnCount) else {
                throw .misuse("a passkey's account has no users.passkey_handle")
            }
            return (try Passkey(row: row), handle)
        }
    }

    /// Every account's handle by user id (accounts without one are left out).
    static func handles(_ connection: Connection) throws(StoreError) -> [String: String] {
        var handles: [String: String] = [:]
        for row in try connection.query("SELECT id, passkey_handle FROM users WHERE passkey_handle IS NOT NULL") {
            handles[try row.string(0)] = try row.string(1)
        }
        return handles
    }
}
