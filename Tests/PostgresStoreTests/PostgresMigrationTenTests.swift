import Foundation
import SQLiteStore
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Migration 10 on PostgreSQL: `integrity_challenges` and `app_attest_keys` with their checks; the version-9 rows
/// stay. `db copy` carries the App Attest keys (the higher counter wins) and leaves the challenges behind.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationTenTests {
    /// A user, its identity (with a sealed token), a session, a deleted-account record, a nonce and an outbox
    /// row, one statement each.
    static let rows = [
        """
        INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at,
            email_verified_by)
        VALUES ('u-1', 'ada@example.com', '$argon2id$a', 'user', NULL, NULL, 1, 2, 'operator')
        """,
        """
        INSERT INTO identities (provider, subject, user_id, email, created_at, refresh_token, email_forwarding)
        VALUES ('apple', 'sub-1', 'u-1', NULL, 3, '\\x0506', true)
        """,
        """
        INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
        VALUES ('s-1', 'u-1', 1, 1, 9000000000000, 9000000000000)
        """,
        "INSERT INTO deleted_accounts (user_id, deleted_at, method) VALUES ('u-0', 4, 'operator')",
        "INSERT INTO auth_nonces (hash, expires_at) VALUES ('n-1', 9000000000000)",
        """
        INSERT INTO outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at)
        VALUES ('m-1', 'verification', 'ada@example.com', '\\x00010203', 0, 5, 5)
        """,
    ]

    /// A key as the exchange stores it after attestation.
    static func key(_ id: String, counter: UInt32 = 0, lastAssertedAt: Date? = nil) -> AttestedKey {
        AttestedKey(
            keyID: id, publicKey: [0x04] + [UInt8](repeating: UInt8(id.utf8.count), count: 64), counter: counter,
            appID: "ABCDE12345.com.example.app", environment: .production, createdAt: Fixture.at(1),
            lastAssertedAt: lastAssertedAt)
    }

    @Test("a version-9 database migrates to 10: the new tables with their checks, the version-9 rows kept")
    func upgrades() async throws {
        try await PostgresTestDatabase.with { database in
            let pool = try PostgresTestDatabase.pool(database.url)
            defer { pool.close() }
            _ = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(9)))
            for row in Self.rows { try await database.query(row) }
            let report = try await PostgresMigrator.migrate(
                pool: pool, migrations: Array(Schema.migrations.prefix(10)))
            #expect(report.applied == [10])
            #expect(
                try await database.query(
                    """
                    SELECT table_name, string_agg(column_name || ':' || data_type || ':' || is_nullable, ','
                        ORDER BY ordinal_position)
                    FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name IN ('integrity_challenges', 'app_attest_keys')
                    GROUP BY table_name ORDER BY table_name
                    """)
                    == [
                        [
                            "app_attest_keys",
                            "key_id:text:NO,public_key:bytea:NO,counter:bigint:NO,app_id:text:NO,environment:text:NO,"
                                + "created_at:bigint:NO,last_asserted_at:bigint:YES",
                        ],
                        ["integrity_challenges", "hash:text:NO,expires_at:bigint:NO"],
                    ])
            #expect(
                try await database.query(
                    """
                    SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes
                    WHERE schemaname = current_schema() AND tablename IN ('integrity_challenges', 'app_attest_keys')
                    """)
                    == [["app_attest_keys_pkey,integrity_challenges_by_expiry,integrity_challenges_pkey"]])
            // The checks refuse what the store never writes.
            let point = "'\\x04" + String(repeating: "00", count: 64) + "'"
            for (key, counter, environment) in [
                ("'\\x04'", "0", "'production'"), (point, "-1", "'production'"),
                (point, "4294967296", "'production'"), (point, "0", "'staging'"),
            ] {
                await #expect(throws: (any Error).self) {
                    try await database.query(
                        """
                        INSERT INTO app_attest_keys (key_id, public_key, counter, app_id, environment, created_at)
                        VALUES ('k', \(key), \(counter), 'a', \(environment), 0)
                        """)
                }
            }
            let store = try await database.open()
            defer { store.close() }
            // The version-9 rows are all there and usable.
            #expect(try await store.users.find(byID: "u-1")?.email == "ada@example.com")
            let identity = try #require(try await store.identities.identities(userID: "u-1").first)
            #expect(identity.sealedRefreshToken == [5, 6] && identity.emailForwarding == true)
            #expect(try await store.sessions.status(sessionID: "s-1") != nil)
            #expect(try await store.users.deletedAccounts().map(\.userID) == ["u-0"])
            #expect(try await store.identities.consumeNonce(hash: "n-1", now: Fixture.epoch))
            #expect(try await store.email.listOutbox().map(\.id) == ["m-1"])
            // The new tables work.
            #expect(
                try await store.integrity.issueChallenge(
                    hash: "c", expiresAt: Fixture.at(300), maxPending: 1, now: Fixture.epoch))
            #expect(try await store.integrity.consumeChallenge(hash: "c", now: Fixture.epoch))
            let key = Self.key("k", counter: UInt32.max, lastAssertedAt: Fixture.at(2))
            #expect(try await store.integrity.insertAttestedKey(key))
            #expect(try await store.integrity.attestedKey(id: "k") == key)
        }
    }

    @Test("db copy carries the App Attest keys, the higher counter winning; challenges are not copied")
    func copyCarriesKeys() async throws {
        try await PostgresTestDatabase.withSQLiteSource { sqlite in
            #expect(try await sqlite.integrity.insertAttestedKey(Self.key("a")))
            #expect(try await sqlite.integrity.insertAttestedKey(Self.key("bb")))
            #expect(try await sqlite.integrity.advanceCounter(keyID: "bb", to: 5, now: Fixture.at(5)))
            #expect(
                try await sqlite.integrity.issueChallenge(
                    hash: "c", expiresAt: Fixture.at(300), maxPending: 10, now: Fixture.epoch))
            let snapshot = try await sqlite.snapshot()
            #expect(snapshot.attestedKeys == (try await sqlite.integrity.attestedKeys()))
            #expect(snapshot.attestedKeys.map(\.keyID) == ["a", "bb"])
            try await PostgresTestDatabase.with { database in
                let target = try await database.open()
                defer { target.close() }
                // The target already saw a later assertion of "a" and an earlier one of "bb", and has its own key.
                #expect(try await target.integrity.insertAttestedKey(Self.key("a", counter: 9)))
                #expect(try await target.integrity.advanceCounter(keyID: "a", to: 10, now: Fixture.at(10)))
                #expect(try await target.integrity.insertAttestedKey(Self.key("bb", counter: 2)))
                #expect(try await target.integrity.insertAttestedKey(Self.key("ccc")))
                let report = try await target.copy(from: snapshot, replacing: false)
                #expect(report == CopyReport(users: 0, customerIDs: 0, sessions: 0, attestedKeys: 2))
                #expect(try await target.copy(from: snapshot, replacing: false) == report, "idempotent")
                #expect(
                    try await target.integrity.attestedKeys() == [
                        Self.key("a", counter: 10, lastAssertedAt: Fixture.at(10)),
                        Self.key("bb", counter: 5, lastAssertedAt: Fixture.at(5)), Self.key("ccc"),
                    ])
                #expect(try await !target.integrity.consumeChallenge(hash: "c", now: Fixture.epoch))
                // A replacing copy leaves exactly the source's keys.
                _ = try await target.copy(from: snapshot, replacing: true)
                #expect(try await target.integrity.attestedKeys() == snapshot.attestedKeys)
            }
        }
    }
}
