import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Migration 9 (issue 33) renames `email_outbox` to `outbox` with its rows and its index, adds `deleted_accounts`
/// and the identities' `refresh_token` and `email_forwarding`, and changes nothing else.
@Suite struct MigrationNineTests {
    /// A file at schema version 8 with a user, its identity, a session and two outbox rows (one given up).
    static func versionEight(_ temporary: TemporaryDatabase) throws {
        try temporary.create(
            atVersion: 8,
            rows: """
                INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at,
                    email_verified_at, email_verified_by)
                VALUES ('u-1', 'ada@example.com', '$argon2id$a', 'user', NULL, NULL, 1, 2, 'operator');
                INSERT INTO identities (provider, subject, user_id, email, created_at)
                VALUES ('apple', 'sub-1', 'u-1', NULL, 3);
                INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
                VALUES ('s-1', 'u-1', 1, 1, 9000000000000, 9000000000000);
                INSERT INTO email_outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at)
                VALUES ('m-1', 'verification', 'ada@example.com', X'00010203', 0, 5, 5);
                INSERT INTO email_outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at,
                    failed_at, last_error)
                VALUES ('m-2', 'password_reset', 'bob@example.com', NULL, 3, 6, 7, 8, '550 no such user');
                """)
    }

    @Test("a version-8 database migrates to 9: the outbox renamed with its rows and index, the new table and columns")
    func upgrades() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        try Self.versionEight(temporary)
        // A snapshot of the file before it is migrated reads its identities without the new columns.
        let before = try SQLiteStore.snapshot(readingFileAt: temporary.path, now: Fixture.epoch)
        #expect(before.identities.map(\.subject) == ["sub-1"] && before.deletedAccounts.isEmpty)
        #expect(before.identities.first?.sealedRefreshToken == nil && before.identities.first?.emailForwarding == nil)
        let database = try temporary.open()
        defer { database.close() }
        let (version, tables, indexes, columns) = try await database.read {
            (connection: Connection) throws(StoreError) -> (Int, [String], [String], [String: [String]]) in
            let tables = try connection.query(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('email_outbox', 'outbox')"
            ).map { (row: Row) throws(StoreError) in try row.string(0) }
            let indexes = try connection.query(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox' ORDER BY name"
            ).map { (row: Row) throws(StoreError) in try row.string(0) }
            var columns: [String: [String]] = [:]
            for table in ["outbox", "deleted_accounts", "identities"] {
                columns[table] = try connection.query("SELECT name FROM pragma_table_info(?)", [.text(table)])
                    .map { (row: Row) throws(StoreError) in try row.string(0) }
            }
            return (try Migrator.userVersion(connection), tables, indexes, columns)
        }
        #expect(version == Schema.migrations.last?.version)  // 9, and any later step on top
        #expect(tables == ["outbox"])
        #expect(indexes.contains("outbox_by_due") && !indexes.contains("email_outbox_by_due"))
        #expect(
            columns["outbox"]
                == [
                    "id", "kind", "recipient", "body", "attempts", "created_at", "next_attempt_at", "claimed_by",
                    "claimed_until", "failed_at", "last_error",
                ])
        #expect(columns["deleted_accounts"] == ["user_id", "deleted_at", "method"])
        #expect(
            columns["identities"]
                == ["provider", "subject", "user_id", "email", "created_at", "refresh_token", "email_forwarding"])
        // The rows survived the rename and the queries find them by the new name.
        let store = SQLiteStore(database: database)
        let rows = try await store.email.listOutbox()
        #expect(rows.map(\.id) == ["m-1", "m-2"])
        #expect(rows.last?.failedAt == Date(storeMilliseconds: 8) && rows.last?.lastError == "550 no such user")
        #expect(try await store.email.pendingOutboxCount() == 1)
        let claimed = try await store.email.claimOutbox(owner: "o", limit: 5, lease: .seconds(9), now: Fixture.epoch)
        #expect(claimed.map(\.body) == [[0, 1, 2, 3]])
        // The identity reads with no token and unknown forwarding; both can be set now.
        let identity = try #require(try await store.identities.identities(userID: "u-1").first)
        #expect(identity.sealedRefreshToken == nil && identity.emailForwarding == nil)
        #expect(
            try await store.identities.setSealedRefreshToken(
                provider: "apple", subject: "sub-1", userID: "u-1", sealed: [5, 6]))
        #expect(try await store.identities.setEmailForwarding(provider: "apple", subject: "sub-1", forwards: true))
        let record = try await store.users.deleteUser(userID: "u-1", method: .operator, now: Fixture.epoch)
        #expect(try await store.users.deletedAccounts() == [record])
        #expect(try await store.sessions.status(sessionID: "s-1") == nil)
        #expect(
            try await store.email.listOutbox().map(\.kind) == ["password_reset", OutboxJobKind.providerTokenRevocation])
    }

    @Test("a rebuilt outbox index is used by the claim (not a full scan)")
    func claimUsesIndex() throws {
        try TemporaryDatabase.with { database, _ in
            let plan = try database.read { (connection: Connection) throws(StoreError) in
                try connection.query(
                    """
                    EXPLAIN QUERY PLAN SELECT id FROM outbox
                    WHERE failed_at IS NULL AND next_attempt_at <= 1 ORDER BY created_at, id LIMIT 5
                    """
                ).map { (row: Row) throws(StoreError) in try row.string(3) }
            }
            #expect(plan.contains { $0.contains("outbox_by_due") }, "\(plan)")
        }
    }
}
