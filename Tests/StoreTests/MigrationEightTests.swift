import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Migration 8 adds `email_codes` and `email_outbox` (issue 32) and changes nothing else (that `db copy` leaves
/// both behind is tested where it writes: `PostgresMigrationEightTests`). Migration 9 renamed `email_outbox` to
/// `outbox` (`MigrationNineTests`): opening migrates to the latest version, so the outbox is read by its new name.
@Suite struct MigrationEightTests {
    /// A file at schema version 7 with a user and a session.
    static func versionSeven(_ temporary: TemporaryDatabase) throws {
        try temporary.create(
            atVersion: 7,
            rows: """
                INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at,
                    email_verified_at, email_verified_by)
                VALUES ('u-1', 'ada@example.com', '$argon2id$a', 'user', NULL, NULL, 1, 2, 'operator');
                INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
                VALUES ('s-1', 'u-1', 1, 1, 9000000000000, 9000000000000);
                """)
    }

    @Test("a version-7 database migrates to 8: the two tables and their indexes, the rows kept, codes and mail work")
    func upgrades() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        try Self.versionSeven(temporary)
        let database = try temporary.open()
        defer { database.close() }
        let (version, columns, indexes) = try await database.read { (connection: Connection) throws(StoreError) in
            var columns: [String: [String]] = [:]
            for table in ["email_codes", "outbox"] {
                columns[table] = try connection.query("SELECT name FROM pragma_table_info(?)", [.text(table)])
                    .map { (row: Row) throws(StoreError) in try row.string(0) }
            }
            let indexes = try connection.query(
                """
                SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('email_codes', 'outbox')
                ORDER BY name
                """
            ).map { (row: Row) throws(StoreError) in try row.string(0) }
            return (try Migrator.userVersion(connection), columns, indexes)
        }
        #expect(version == Schema.migrations.last?.version)  // 8, and any later step on top
        #expect(
            columns["email_codes"]
                == ["purpose", "subject", "hash", "user_id", "email", "attempts", "created_at", "expires_at"])
        #expect(
            columns["outbox"]
                == [
                    "id", "kind", "recipient", "body", "attempts", "created_at", "next_attempt_at", "claimed_by",
                    "claimed_until", "failed_at", "last_error",
                ])
        #expect(indexes.contains("email_codes_by_expiry") && indexes.contains("outbox_by_due"))
        let store = SQLiteStore(database: database)
        #expect(try await store.users.find(byID: "u-1")?.emailVerifiedBy == .operator)
        #expect(try await store.sessions.status(sessionID: "s-1")?.revokedAt == nil)
        let now = Fixture.epoch
        let code = EmailCode(
            purpose: .verification, subject: "u-1", hash: "h", userID: "u-1", email: "ada@example.com",
            createdAt: now, expiresAt: now.addingTimeInterval(600))
        try await store.email.issueCode(
            code,
            message: OutboxMessage(
                id: "m-1", kind: "verification", recipient: "ada@example.com", body: [1], createdAt: now))
        let check = try await store.email.redeemCode(
            purpose: .verification, subject: "u-1", hash: "h", maxAttempts: 5, now: now)
        #expect(check == .accepted(code))
        #expect(try await store.email.pendingOutboxCount() == 1)
    }
}
