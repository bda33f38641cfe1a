internal import CSQLite
public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension SQLiteStore {
    /// The oldest schema version `snapshot(readingFileAt:now:)` reads (version 2 added `email_verified_at`).
    public static let oldestSnapshotVersion = 2

    /// Everything another store needs to take over this deployment (`tokenvend db copy`): every user, every
    /// stored customer id, every identity (with its sealed provider token and forwarding), the records of deleted
    /// accounts, the attested App Attest keys, the accounts' passkey handles and passkeys, the sessions still
    /// usable at `now` (not revoked, neither expiry reached) and the revoked sessions not yet purged (so a copy
    /// repeated after a logout revokes the session on the target too), read in one read transaction so they agree
    /// with each other. The transient tables are left out: browser sign-in flows and codes, nonces, integrity and
    /// passkey challenges, email codes and the outbox (pending revocations too: drain it first).
    /// - Throws: `.unavailable` when no reader can be opened.
    public func snapshot(now: Date = Date()) async throws(StoreError) -> StoreSnapshot {
        try await database.read { (connection: Connection) throws(StoreError) -> StoreSnapshot in
            try Self.snapshot(connection, now: now)
        }
    }

    /// The snapshot of the SQLite file at `path`, read without opening a store: nothing is created or migrated
    /// (a running server's file stays at its version), the connection is `query_only`, and the rows are read
    /// in one read transaction (WAL readers never block the writer). Blocks the calling thread.
    /// - Throws: `.unavailable(.cannotOpen)` when the file cannot be opened; `.schemaTooNew` for a schema newer
    ///   than this code knows; `.misuse` (one line) for one older than `oldestSnapshotVersion`.
    public static func snapshot(readingFileAt path: String, now: Date = Date()) throws(StoreError) -> StoreSnapshot {
        let connection = try Connection(path: path, flags: SQLITE_OPEN_READWRITE)
        try connection.setBusyTimeout(milliseconds: 5_000)
        try connection.executeScript("PRAGMA query_only = ON")
        _ = try connection.execute("BEGIN")
        defer { _ = try? connection.execute("ROLLBACK") }
        let found = try Migrator.userVersion(connection)
        let known = Schema.migrations.last?.version ?? 0
        guard found <= known else { throw .schemaTooNew(found: found, known: known) }
        guard found >= oldestSnapshotVersion else {
            throw .misuse(
                "the SQLite database is at schema version \(found); copying needs version \(oldestSnapshotVersion) "
                    + "or later: start the current tokenvend on it (or run tokenvend db migrate) first")
        }
        return try snapshot(connection, now: now)
    }

    /// Reads the snapshot on `connection`, inside the caller's read transaction.
    static func snapshot(_ connection: Connection, now: Date) throws(StoreError) -> StoreSnapshot {
        let version = try Migrator.userVersion(connection)
        // Before version 7 the source of a verified email is computed as step 7 would write it (before version 4
        // there were no identities: only an operator verified emails).
        let users: [User]
        if version >= 7 {
            users = try UserStore.list(connection)
        } else {
            let source = version >= 4 ? Schema.legacyEmailVerifiedBy : "'operator'"
            let columns = User.columns.replacing(
                "email_verified_by", with: "CASE WHEN email_verified_at IS NULL THEN NULL ELSE \(source) END")
            users = try UserStore.list(connection, columns: columns)
        }
        var customerIDs: [StoredCustomerID] = []
        for row in try connection.query("SELECT user_id, key, value FROM customer_ids ORDER BY user_id, key") {
            customerIDs.append(
                StoredCustomerID(userID: try row.string(0), key: try row.string(1), value: try row.string(2)))
        }
        var sessions: [Session] = []
        var revoked: [Session] = []
        // Version 11 added the DPoP binding; an older file's sessions are unbound.
        let sessionColumns = version >= 11 ? Session.columns : Session.columnsBeforeVersion11
        for row in try connection.query(
            """
            SELECT \(sessionColumns) FROM sessions
            WHERE revoked_at IS NOT NULL OR (refresh_expires_at > ?1 AND expires_at > ?1)
            ORDER BY created_at, id
            """, [.integer(now.storeMilliseconds)])
        {
            let session = try Session(row: row)
            if session.revokedAt == nil { sessions.append(session) } else { revoked.append(session) }
        }
        // Version 4 added identities; an older file (read without migrating) has none.
        // Version 9 added their sealed provider tokens and forwarding, and the records of deleted accounts.
        var identities: [Identity] = []
        if version >= 4 {
            let columns = version >= 9 ? Identity.columns : Identity.columnsBeforeVersion9
            for row in try connection.query(
                "SELECT \(columns) FROM identities ORDER BY created_at, provider, subject")
            {
                identities.append(try Identity(row: row))
            }
        }
        let deleted = version >= 9 ? try UserStore.deletedAccounts(connection) : []
        // Version 10 added the App Attest keys.
        let keys = version >= 10 ? try SQLiteIntegrityStore.attestedKeys(connection) : []
        // Version 12 added the passkeys and the accounts' handles.
        let handles = version >= 12 ? try SQLitePasskeyStore.handles(connection) : [:]
        let passkeys = version >= 12 ? try SQLitePasskeyStore.allPasskeys(connection).map(\.passkey) : []
        return StoreSnapshot(
            users: users, customerIDs: customerIDs, sessions: sessions, revokedSessions: revoked,
            identities: identities, deletedAccounts: deleted, attestedKeys: keys, passkeyHandles: handles,
            passkeys: passkeys)
    }
}
