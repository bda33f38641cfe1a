import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Migration 10 (issue 34) adds `integrity_challenges` and `app_attest_keys`, with their checks, and changes
/// nothing else: the rows of the version-9 tables survive.
@Suite struct MigrationTenTests {
    /// A file at schema version 9 with a user, its identity (with a sealed token), a session, a deleted-account
    /// record, a nonce and an outbox row.
    static func versionNine(_ temporary: TemporaryDatabase) throws {
        try temporary.create(atVersion: 9, rows: rows)
    }

    /// The rows of `versionNine` (valid at any later version too).
    static let rows = """
        INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at,
            email_verified_at, email_verified_by)
        VALUES ('u-1', 'ada@example.com', '$argon2id$a', 'user', NULL, NULL, 1, 2, 'operator');
        INSERT INTO identities (provider, subject, user_id, email, created_at, refresh_token, email_forwarding)
        VALUES ('apple', 'sub-1', 'u-1', NULL, 3, X'0506', 1);
        INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
        VALUES ('s-1', 'u-1', 1, 1, 9000000000000, 9000000000000);
        INSERT INTO deleted_accounts (user_id, deleted_at, method) VALUES ('u-0', 4, 'operator');
        INSERT INTO auth_nonces (hash, expires_at) VALUES ('n-1', 9000000000000);
        INSERT INTO outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at)
        VALUES ('m-1', 'verification', 'ada@example.com', X'00010203', 0, 5, 5);
        """

    @Test("a version-9 database migrates to 10: the two new tables, and every version-9 row kept")
    func upgrades() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        try Self.versionNine(temporary)
        // A snapshot of the file before it is migrated has no keys (and reads the rest).
        let before = try SQLiteStore.snapshot(readingFileAt: temporary.path, now: Fixture.epoch)
        #expect(before.attestedKeys.isEmpty && before.users.map(\.id) == ["u-1"])
        let database = try temporary.open()
        defer { database.close() }
        let (version, columns, indexes) = try await database.read {
            (connection: Connection) throws(StoreError) -> (Int, [String: [String]], [String]) in
            var columns: [String: [String]] = [:]
            for table in ["integrity_challenges", "app_attest_keys"] {
                columns[table] = try connection.query("SELECT name FROM pragma_table_info(?)", [.text(table)])
                    .map { (row: Row) throws(StoreError) in try row.string(0) }
            }
            let indexes = try connection.query(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'integrity_challenges'"
            ).map { (row: Row) throws(StoreError) in try row.string(0) }
            return (try Migrator.userVersion(connection), columns, indexes)
        }
        #expect(version == Schema.migrations.last?.version)  // 10, and any later step on top
        #expect(columns["integrity_challenges"] == ["hash", "expires_at"])
        #expect(
            columns["app_attest_keys"]
                == ["key_id", "public_key", "counter", "app_id", "environment", "created_at", "last_asserted_at"])
        #expect(indexes.contains("integrity_challenges_by_expiry"))
        // The version-9 rows are all there and usable.
        let store = SQLiteStore(database: database)
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
                hash: "c", expiresAt: Fixture.epoch.addingTimeInterval(300), maxPending: 1, now: Fixture.epoch))
        #expect(try await store.integrity.consumeChallenge(hash: "c", now: Fixture.epoch))
        let key = AttestedKey(
            keyID: "k", publicKey: [4] + [UInt8](repeating: 1, count: 64), counter: 0, appID: "ABCDE12345.a.b",
            environment: .development, createdAt: Fixture.epoch)
        #expect(try await store.integrity.insertAttestedKey(key))
        #expect(try await store.integrity.attestedKey(id: "k") == key)
        #expect(try SQLiteStore.snapshot(readingFileAt: temporary.path, now: Fixture.epoch).attestedKeys == [key])
    }

    @Test("the table checks refuse what the store never writes: a bad counter, environment or key length")
    func checks() throws {
        try TemporaryDatabase.with { database, _ in
            let refused = try database.write { (connection: Connection) throws(StoreError) -> [StoreError?] in
                var errors: [StoreError?] = []
                for (key, counter, environment) in [
                    ("X'04'", "0", "'production'"), (Self.point, "-1", "'production'"),
                    (Self.point, "4294967296", "'production'"), (Self.point, "0", "'staging'"),
                    (Self.point, "4294967295", "'development'"),
                ] {
                    do throws(StoreError) {
                        _ = try connection.execute(
                            """
                            INSERT INTO app_attest_keys (key_id, public_key, counter, app_id, environment, created_at)
                            VALUES ('k' || \(counter) || \(environment), \(key), \(counter), 'a', \(environment), 0)
                            """)
                        errors.append(nil)
                    } catch {
                        errors.append(error)
                    }
                }
                return errors
            }
            #expect(
                refused == [.constraint(.check), .constraint(.check), .constraint(.check), .constraint(.check), nil])
        }
    }

    @Test("the challenge prune and the consumption use the expiry index and the primary key (no full scan)")
    func pruneUsesIndex() throws {
        try TemporaryDatabase.with { database, _ in
            let plan = try database.read { (connection: Connection) throws(StoreError) in
                try connection.query("EXPLAIN QUERY PLAN DELETE FROM integrity_challenges WHERE expires_at <= 1")
                    .map { (row: Row) throws(StoreError) in try row.string(3) }
            }
            #expect(plan.contains { $0.contains("integrity_challenges_by_expiry") }, "\(plan)")
        }
    }

    /// An uncompressed point's 65 bytes as an SQL blob literal.
    static let point = "X'04" + String(repeating: "00", count: 64) + "'"
}
