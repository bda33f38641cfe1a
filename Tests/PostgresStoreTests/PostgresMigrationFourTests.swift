import Foundation
import Store
import Testing

@testable import PostgresStore

/// Migration 4 on PostgreSQL: email and password hash become nullable in place; every row and reference stays.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationFourTests {
    static let dumps = [
        // The columns of version 6: version 7 adds email_verified_by (see the MigrationSeven tests).
        "SELECT id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at FROM users ORDER BY id",
        "SELECT * FROM customer_ids ORDER BY user_id, key",
        "SELECT * FROM sessions ORDER BY id",
    ]

    @Test("a version-3 database migrates to 4 keeping every row; deleting a user still cascades")
    func keepsRowsAndForeignKeys() async throws {
        let database = try await PostgresTestDatabase.make()
        do {
            let pool = try PostgresTestDatabase.pool(database.url)
            defer { pool.close() }
            let three = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(3)))
            #expect(three.version.found == 3)
            try await database.query(
                """
                INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at,
                    email_verified_at)
                VALUES ('u1', 'ada@example.com', '$argon2id$a', 'admin', 't1', NULL, 1, 5),
                    ('u2', 'bob@example.com', '$argon2id$b', 'user', NULL, 7, 2, NULL)
                """)
            try await database.query(
                """
                INSERT INTO customer_ids (user_id, key, value) VALUES
                    ('u1', 'crm', 'C-1'), ('u1', 'registered', 'R-1'), ('u2', 'crm', 'C-2')
                """)
            try await database.query(
                """
                INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at,
                    revoked_at, user_agent, ip, counter, rotated_at)
                VALUES ('s1', 'u1', 1, 2, 10, 20, NULL, 'ua', '::1', 3, 2),
                    ('s2', 'u1', 1, 1, 10, 20, 4, NULL, NULL, 0, NULL),
                    ('s3', 'u2', 2, 2, 10, 20, NULL, 'ub', '127.0.0.1', 1, NULL)
                """)
            var before: [[[String?]]] = []
            for sql in Self.dumps { before.append(try await database.query(sql)) }
            #expect(before.map(\.count) == [2, 3, 3])
            let report = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(4)))
            #expect(report.applied == [4])
            var after: [[[String?]]] = []
            for sql in Self.dumps { after.append(try await database.query(sql)) }
            #expect(after == before)
            // Nullable now, still unique.
            try await database.query("INSERT INTO users (id, created_at) VALUES ('n1', 3), ('n2', 3)")
            await #expect(throws: (any Error).self) {
                try await database.query("INSERT INTO users (id, email, created_at) VALUES ('x', 'ada@example.com', 3)")
            }
            try await database.query("DELETE FROM users WHERE id = 'u1'")
            #expect(try await database.query("SELECT id FROM sessions ORDER BY id") == [["s3"]])
            #expect(try await database.query("SELECT user_id, key FROM customer_ids") == [["u2", "crm"]])
            #expect(
                try await database.query(
                    "SELECT to_regclass('identities') IS NOT NULL AND to_regclass('id_token_uses') IS NOT NULL")
                    == [["t"]])
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }
}
