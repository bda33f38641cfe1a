import Foundation
import SQLiteStore
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Migration 12 on PostgreSQL (passkeys, issue 36): `users.passkey_handle` (unique, NULL for existing accounts),
/// `passkeys` and `passkey_challenges` with their checks; the version-11 rows stay. `db copy` carries the handles
/// and the passkeys (the higher counter wins) and leaves the challenges behind.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationTwelveTests {
    /// The rows of a version-11 database: those of version 9 (`PostgresMigrationTenTests.rows`), an App Attest
    /// key and a session bound to a DPoP key.
    static let rows =
        PostgresMigrationTenTests.rows + [
            """
            INSERT INTO app_attest_keys (key_id, public_key, counter, app_id, environment, created_at)
            VALUES ('k-1', '\\x04\(String(repeating: "01", count: 64))', 7, 'ABCDE12345.a.b', 'production', 6)
            """,
            """
            INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at, dpop_jkt)
            VALUES ('s-2', 'u-1', 2, 2, 9000000000000, 9000000000000, 'jkt')
            """,
        ]

    /// The version-11 rows of `users`, `sessions`, `app_attest_keys` and `identities`, every column named.
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

    /// A passkey of `userID`.
    static func passkey(
        _ id: String, userID: String, signCount: UInt32 = 0, backedUp: Bool = false, lastUsedAt: Date? = nil
    ) -> Passkey {
        Passkey(
            credentialID: id, userID: userID, publicKey: [0xA5] + Array(id.utf8), algorithm: -7, signCount: signCount,
            backupEligible: true, backedUp: backedUp, transports: ["internal", "hybrid"], aaguid: Array(1...16),
            name: "Passkey \(id)", createdAt: Fixture.at(1), lastUsedAt: lastUsedAt)
    }

    @Test("a version-11 database migrates to 12: the handle column, the two tables, every version-11 row kept")
    func upgrades() async throws {
        try await PostgresTestDatabase.with { database in
            let pool = try PostgresTestDatabase.pool(database.url)
            defer { pool.close() }
            _ = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(11)))
            for row in Self.rows { try await database.query(row) }
            var before: [[[String?]]] = []
            for sql in Self.dumps { before.append(try await database.query(sql)) }
            #expect(before.map(\.count) == [1, 2, 1, 1])
            let report = try await PostgresMigrator.migrate(
                pool: pool, migrations: Array(Schema.migrations.prefix(12)))
            #expect(report.applied == [12])
            var after: [[[String?]]] = []
            for sql in Self.dumps { after.append(try await database.query(sql)) }
            #expect(after == before)
            #expect(
                try await database.query(
                    """
                    SELECT table_name, string_agg(column_name || ':' || data_type || ':' || is_nullable, ','
                        ORDER BY ordinal_position)
                    FROM information_schema.columns
                    WHERE table_schema = current_schema() AND (table_name IN ('passkeys', 'passkey_challenges')
                        OR (table_name = 'users' AND column_name = 'passkey_handle'))
                    GROUP BY table_name ORDER BY table_name
                    """)
                    == [
                        [
                            "passkey_challenges",
                            "hash:text:NO,ceremony:text:NO,user_id:text:YES,user_handle:text:YES,email:text:YES,"
                                + "expires_at:bigint:NO",
                        ],
                        [
                            "passkeys",
                            "credential_id:text:NO,user_id:text:NO,public_key:bytea:NO,algorithm:bigint:NO,"
                                + "sign_count:bigint:NO,backup_eligible:bigint:NO,backed_up:bigint:NO,"
                                + "transports:text:NO,aaguid:bytea:NO,name:text:NO,created_at:bigint:NO,"
                                + "last_used_at:bigint:YES",
                        ],
                        ["users", "passkey_handle:text:YES"],
                    ])
            #expect(
                try await database.query(
                    """
                    SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes
                    WHERE schemaname = current_schema() AND (tablename IN ('passkeys', 'passkey_challenges')
                        OR indexname = 'users_by_passkey_handle')
                    """)
                    == [
                        [
                            "passkey_challenges_by_expiry,passkey_challenges_pkey,passkeys_by_user,passkeys_pkey,"
                                + "users_by_passkey_handle"
                        ]
                    ])
            // The checks refuse what the store never writes.
            let zeros = "'\\x" + String(repeating: "00", count: 16) + "'"
            for (count, flag, aaguid) in [
                ("-1", "0", zeros), ("4294967296", "0", zeros), ("0", "2", zeros), ("0", "0", "'\\x00'"),
            ] {
                await #expect(throws: (any Error).self) {
                    try await database.query(
                        """
                        INSERT INTO passkeys (credential_id, user_id, public_key, algorithm, sign_count,
                            backup_eligible, backed_up, transports, aaguid, name, created_at)
                        VALUES ('c', 'u-1', '\\x01', -7, \(count), \(flag), 0, '', \(aaguid), 'n', 0)
                        """)
                }
            }
            await #expect(throws: (any Error).self) {
                try await database.query(
                    "INSERT INTO passkey_challenges (hash, ceremony, expires_at) VALUES ('h', 'login', 0)")
            }
            let store = try await database.open()
            defer { store.close() }
            // The version-11 rows are usable; the account has no handle until asked for one.
            let user = try #require(try await store.users.find(byID: "u-1"))
            #expect(try await store.sessions.find(sessionID: "s-2")?.dpopThumbprint == "jkt")
            #expect(try await store.integrity.attestedKey(id: "k-1")?.counter == 7)
            #expect(try await database.query("SELECT count(*) FROM users WHERE passkey_handle IS NULL") == [["1"]])
            #expect(try await store.passkeys.userHandle(userID: "u-1", proposing: "h-1") == "h-1")
            let passkey = Self.passkey("cred", userID: "u-1")
            #expect(try await store.passkeys.insertPasskey(passkey))
            let found = try #require(try await store.passkeys.passkey(credentialID: "cred"))
            #expect(found.passkey == passkey && found.user == user && found.userHandle == "h-1")
        }
    }

    @Test(
        "db copy carries the handles and passkeys, the higher counter winning; challenges are not copied",
        arguments: [false, true])
    func copyCarriesPasskeys(replacing: Bool) async throws {
        try await PostgresTestDatabase.withSQLiteSource { sqlite in
            let ada = try await Fixture.user(sqlite)
            let bob = try await Fixture.user(sqlite, email: "bob@example.com")
            let carol = try await Fixture.user(sqlite, email: "carol@example.com")
            _ = try await sqlite.passkeys.userHandle(userID: ada.id, proposing: "h-ada")
            _ = try await sqlite.passkeys.userHandle(userID: bob.id, proposing: "h-bob")
            #expect(try await sqlite.passkeys.insertPasskey(Self.passkey("a", userID: ada.id)))
            #expect(try await sqlite.passkeys.insertPasskey(Self.passkey("bb", userID: ada.id)))
            #expect(
                try await sqlite.passkeys.recordAssertion(
                    credentialID: "bb", signCount: 5, backedUp: true, now: Fixture.at(5)))
            #expect(
                try await sqlite.passkeys.issueChallenge(
                    PasskeyChallenge(hash: "c", ceremony: .authentication, expiresAt: Fixture.at(300)), maxPending: 10,
                    now: Fixture.epoch))
            let snapshot = try await sqlite.snapshot(now: Fixture.epoch)
            #expect(snapshot.passkeyHandles == [ada.id: "h-ada", bob.id: "h-bob"])
            #expect(snapshot.passkeys == (try await sqlite.passkeys.passkeys(userID: ada.id)))
            #expect(snapshot.passkeys.map(\.credentialID) == ["a", "bb"])
            try await PostgresTestDatabase.with { database in
                let target = try await database.open()
                defer { target.close() }
                // A first copy; then the target saw a later assertion of "a", and carol got a handle there.
                _ = try await target.copy(from: snapshot, replacing: false)
                #expect(
                    try await target.passkeys.recordAssertion(
                        credentialID: "a", signCount: 9, backedUp: true, now: Fixture.at(9)))
                #expect(try await target.passkeys.userHandle(userID: carol.id, proposing: "h-carol") == "h-carol")
                let report = try await target.copy(from: snapshot, replacing: replacing)
                #expect(report == CopyReport(users: 3, customerIDs: 0, sessions: 0, passkeys: 2))
                #expect(try await target.copy(from: snapshot, replacing: replacing) == report, "idempotent")
                let copied = try await target.passkeys.allPasskeys()
                #expect(copied.map(\.userHandle) == ["h-ada", "h-ada"])
                let expected =
                    replacing
                    ? snapshot.passkeys
                    : [
                        Self.passkey("a", userID: ada.id, signCount: 9, backedUp: true, lastUsedAt: Fixture.at(9)),
                        Self.passkey("bb", userID: ada.id, signCount: 5, backedUp: true, lastUsedAt: Fixture.at(5)),
                    ]
                #expect(copied.map(\.passkey) == expected)
                #expect(try await target.passkeys.userHandle(userID: bob.id, proposing: "other") == "h-bob")
                // Carol's handle made on the target: kept by a copy whose source has none; gone with a replacing one.
                #expect(
                    try await target.passkeys.userHandle(userID: carol.id, proposing: "h-new")
                        == (replacing ? "h-new" : "h-carol"))
                #expect(try await target.passkeys.consumeChallenge(hash: "c", now: Fixture.epoch) == nil)
                #expect(try await target.users.list() == (try await sqlite.users.list()))
            }
        }
    }
}
