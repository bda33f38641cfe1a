import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Migration 12 (passkeys, issue 36) adds `users.passkey_handle` (unique, NULL for existing accounts), `passkeys`
/// and `passkey_challenges` with their checks, and changes nothing else: the version-11 rows survive.
@Suite struct MigrationTwelveTests {
    /// The rows of a version-11 file: those of version 9 (`MigrationTenTests.rows`), an App Attest key and a
    /// session bound to a DPoP key.
    static let rows =
        MigrationTenTests.rows + """
            INSERT INTO app_attest_keys (key_id, public_key, counter, app_id, environment, created_at)
            VALUES ('k-1', X'04\(String(repeating: "01", count: 64))', 7, 'ABCDE12345.a.b', 'production', 6);
            INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at, dpop_jkt)
            VALUES ('s-2', 'u-1', 2, 2, 9000000000000, 9000000000000, 'jkt');
            """

    /// The version-11 rows of `users` and `sessions`, every column named (version 12 adds one to `users`).
    static let dumps = [
        """
        SELECT id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at,
            email_verified_by FROM users ORDER BY id
        """,
        """
        SELECT id, user_id, created_at, last_used_at, refresh_expires_at, expires_at, revoked_at, user_agent, ip,
            counter, rotated_at, dpop_jkt FROM sessions ORDER BY id
        """,
        "SELECT key_id, public_key, counter, app_id, environment, created_at, last_asserted_at FROM app_attest_keys",
        "SELECT provider, subject, user_id, email, created_at, refresh_token, email_forwarding FROM identities",
    ]

    static func dump(_ connection: Connection) throws(StoreError) -> [[Row]] {
        var dumps: [[Row]] = []
        for sql in Self.dumps { dumps.append(try connection.query(sql)) }
        return dumps
    }

    /// `dump` of the file at `path`, on a connection of its own, closed on return (SQLITE_OPEN_READWRITE).
    static func dump(atPath path: String) throws(StoreError) -> [[Row]] {
        try dump(try Connection(path: path, flags: 0x2))
    }

    @Test("a version-11 database migrates to 12: the handle column, the two tables, every version-11 row kept")
    func upgrades() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        try temporary.create(atVersion: 11, rows: Self.rows)
        let before = try SQLiteStore.snapshot(readingFileAt: temporary.path, now: Fixture.epoch)
        #expect(before.passkeys.isEmpty && before.passkeyHandles.isEmpty && before.users.map(\.id) == ["u-1"])
        let rowsBefore = try Self.dump(atPath: temporary.path)
        #expect(rowsBefore.map(\.count) == [1, 2, 1, 1])
        let database = try temporary.open()
        defer { database.close() }
        let (version, columns, indexes, rowsAfter) = try await database.read {
            (connection: Connection) throws(StoreError) -> (Int, [String: [String]], [String], [[Row]]) in
            var columns: [String: [String]] = [:]
            for table in ["users", "passkeys", "passkey_challenges"] {
                columns[table] = try connection.query("SELECT name FROM pragma_table_info(?)", [.text(table)])
                    .map { (row: Row) throws(StoreError) in try row.string(0) }
            }
            let indexes = try connection.query(
                """
                SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%'
                    AND tbl_name IN ('users', 'passkeys', 'passkey_challenges') ORDER BY name
                """
            ).map { (row: Row) throws(StoreError) in try row.string(0) }
            return (try Migrator.userVersion(connection), columns, indexes, try Self.dump(connection))
        }
        #expect(version == Schema.migrations.last?.version)  // 12, and any later step on top
        #expect(columns["users"]?.last == "passkey_handle")
        #expect(
            columns["passkeys"] == [
                "credential_id", "user_id", "public_key", "algorithm", "sign_count", "backup_eligible", "backed_up",
                "transports", "aaguid", "name", "created_at", "last_used_at",
            ])
        #expect(
            columns["passkey_challenges"] == ["hash", "ceremony", "user_id", "user_handle", "email", "expires_at"])
        #expect(indexes == ["passkey_challenges_by_expiry", "passkeys_by_user", "users_by_passkey_handle"])
        #expect(rowsAfter == rowsBefore)
        // The version-11 rows are usable: the account has no handle until asked for one.
        let store = SQLiteStore(database: database)
        let user = try #require(try await store.users.find(byID: "u-1"))
        #expect(try await store.passkeys.passkeys(userID: "u-1").isEmpty)
        #expect(try await store.sessions.find(sessionID: "s-2")?.dpopThumbprint == "jkt")
        #expect(try await store.integrity.attestedKey(id: "k-1")?.counter == 7)
        #expect(try await store.passkeys.userHandle(userID: "u-1", proposing: "h-1") == "h-1")
        let passkey = Passkey(
            credentialID: "cred", userID: "u-1", publicKey: [1, 2, 3], algorithm: -8, signCount: 0,
            backupEligible: true, backedUp: true, transports: ["internal"], name: "Phone", createdAt: Fixture.epoch)
        #expect(try await store.passkeys.insertPasskey(passkey))
        let found = try #require(try await store.passkeys.passkey(credentialID: "cred"))
        #expect(found.passkey == passkey && found.user == user && found.userHandle == "h-1")
        let after = try SQLiteStore.snapshot(readingFileAt: temporary.path, now: Fixture.epoch)
        #expect(after.passkeys == [passkey] && after.passkeyHandles == ["u-1": "h-1"])
        #expect(after.users == before.users && after.sessions == before.sessions)
    }

    @Test("the table checks refuse what the store never writes: a bad counter, flag, AAGUID or ceremony")
    func checks() throws {
        try TemporaryDatabase.with { database, _ in
            let user = try Fixture.user(database)
            let zeros = "X'" + String(repeating: "00", count: 16) + "'"
            let refused = try database.write { (connection: Connection) throws(StoreError) -> [StoreError?] in
                var errors: [StoreError?] = []
                for (index, (count, flag, aaguid)) in [
                    ("-1", "0", zeros), ("4294967296", "0", zeros), ("0", "2", zeros), ("0", "0", "X'00'"),
                    ("4294967295", "1", zeros),
                ].enumerated() {
                    do throws(StoreError) {
                        _ = try connection.execute(
                            """
                            INSERT INTO passkeys (credential_id, user_id, public_key, algorithm, sign_count,
                                backup_eligible, backed_up, transports, aaguid, name, created_at)
                            VALUES ('c\(index)', ?, X'01', -7, \(count), \(flag), 0, '', \(aaguid), 'n', 0)
                            """, [.text(user.id)])
                        errors.append(nil)
                    } catch {
                        errors.append(error)
                    }
                }
                do throws(StoreError) {
                    _ = try connection.execute(
                        "INSERT INTO passkey_challenges (hash, ceremony, expires_at) VALUES ('h', 'login', 0)")
                    errors.append(nil)
                } catch {
                    errors.append(error)
                }
                return errors
            }
            #expect(
                refused == [
                    .constraint(.check), .constraint(.check), .constraint(.check), .constraint(.check), nil,
                    .constraint(.check),
                ])
        }
    }

    @Test("the challenge prune uses the expiry index, an account's passkeys their index")
    func plansUseIndexes() throws {
        try TemporaryDatabase.with { database, _ in
            let plans = try database.read { (connection: Connection) throws(StoreError) in
                try [
                    "EXPLAIN QUERY PLAN DELETE FROM passkey_challenges WHERE expires_at <= 1",
                    "EXPLAIN QUERY PLAN SELECT name FROM passkeys WHERE user_id = 'u' ORDER BY created_at, credential_id",
                ].map { (sql: String) throws(StoreError) in
                    try connection.query(sql).map { (row: Row) throws(StoreError) in try row.string(3) }
                        .joined(separator: "; ")
                }
            }
            #expect(plans[0].contains("passkey_challenges_by_expiry"), "\(plans[0])")
            #expect(plans[1].contains("passkeys_by_user"), "\(plans[1])")
        }
    }
}
