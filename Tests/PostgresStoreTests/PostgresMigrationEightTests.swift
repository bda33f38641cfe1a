import Foundation
import SQLiteStore
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Migration 8 on PostgreSQL: `email_codes` and `email_outbox`; `db copy` copies neither.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationEightTests {
    static let rows = """
        INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at,
            email_verified_by)
        VALUES ('u-1', 'ada@example.com', '$argon2id$a', 'user', NULL, NULL, 1, 2, 'operator')
        """

    static func code(_ userID: String) -> EmailCode {
        EmailCode(
            purpose: .verification, subject: userID, hash: "h", userID: userID, email: "ada@example.com",
            createdAt: Fixture.at(0), expiresAt: Fixture.at(600))
    }

    static func message(_ id: String) -> OutboxMessage {
        OutboxMessage(
            id: id, kind: "verification", recipient: "ada@example.com", body: [0, 1, 2], createdAt: Fixture.at(0))
    }

    @Test("a version-7 database migrates to 8: the two tables, the rows kept, codes and mail work")
    func upgrades() async throws {
        try await PostgresTestDatabase.with { database in
            let pool = try PostgresTestDatabase.pool(database.url)
            defer { pool.close() }
            _ = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(7)))
            try await database.query(Self.rows)
            let report = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(8)))
            #expect(report.applied == [8])
            #expect(
                try await database.query(
                    """
                    SELECT table_name, string_agg(column_name || ':' || data_type, ',' ORDER BY ordinal_position)
                    FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name LIKE 'email%' GROUP BY table_name
                    ORDER BY table_name
                    """)
                    == [
                        [
                            "email_codes",
                            "purpose:text,subject:text,hash:text,user_id:text,email:text,attempts:bigint,"
                                + "created_at:bigint,expires_at:bigint",
                        ],
                        [
                            "email_outbox",
                            "id:text,kind:text,recipient:text,body:bytea,attempts:bigint,created_at:bigint,"
                                + "next_attempt_at:bigint,claimed_by:text,claimed_until:bigint,failed_at:bigint,"
                                + "last_error:text",
                        ],
                    ])
            let store = try await database.open()
            defer { store.close() }
            #expect(try await store.users.find(byID: "u-1")?.emailVerifiedBy == .operator)
            try await store.email.issueCode(Self.code("u-1"), message: Self.message("m-1"))
            #expect(
                try await store.email.redeemCode(
                    purpose: .verification, subject: "u-1", hash: "h", maxAttempts: 5, now: Fixture.at(1))
                    == .accepted(Self.code("u-1")))
            #expect(try await store.email.pendingOutboxCount() == 1)
        }
    }

    @Test("db copy leaves codes and the outbox behind, and a replacing copy keeps the target's outbox")
    func copyLeavesThemOut() async throws {
        try await PostgresTestDatabase.withSQLiteSource { sqlite in
            let ada = try await Fixture.user(sqlite)
            try await sqlite.email.issueCode(Self.code(ada.id), message: Self.message("m-source"))
            let snapshot = try await sqlite.snapshot()
            try await PostgresTestDatabase.with { database in
                let target = try await database.open()
                defer { target.close() }
                _ = try await target.copy(from: snapshot, replacing: false)
                #expect(try await target.users.list() == (try await sqlite.users.list()))
                #expect(try await database.query("SELECT count(*) FROM email_codes") == [["0"]])
                #expect(try await target.email.listOutbox().isEmpty)
                // The target's own rows: a replacing copy deletes the codes with their users, and leaves the outbox.
                try await target.email.issueCode(Self.code(ada.id), message: Self.message("m-target"))
                _ = try await target.copy(from: snapshot, replacing: true)
                #expect(try await database.query("SELECT count(*) FROM email_codes") == [["0"]])
                #expect(try await target.email.listOutbox().map(\.id) == ["m-target"])
            }
        }
    }
}
