import Foundation
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Migration 5 on PostgreSQL: the browser sign-in tables are added to a version-4 database; every row stays.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationFiveTests {
    static let dumps = [
        // The columns of version 6: version 7 adds email_verified_by (see the MigrationSeven tests).
        "SELECT id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at FROM users ORDER BY id",
        "SELECT * FROM sessions ORDER BY id",
        "SELECT * FROM identities ORDER BY provider, subject",
    ]

    @Test("a version-4 database migrates to 5 keeping every row; status says 5 found; codes cascade with the user")
    func upgrades() async throws {
        let database = try await PostgresTestDatabase.make()
        do {
            let pool = try PostgresTestDatabase.pool(database.url)
            defer { pool.close() }
            let four = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(4)))
            #expect(four.version.found == 4)
            try await database.query(
                "INSERT INTO users (id, email, created_at) VALUES ('u1', 'ada@example.com', 1), ('u2', NULL, 2)")
            try await database.query(
                """
                INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
                VALUES ('s1', 'u1', 1, 2, 10, 20)
                """)
            try await database.query(
                "INSERT INTO identities (provider, subject, user_id, email, created_at) VALUES ('apple', 's', 'u2', NULL, 3)"
            )
            var before: [[[String?]]] = []
            for sql in Self.dumps { before.append(try await database.query(sql)) }
            let known = Schema.migrations.last?.version ?? 0
            #expect(
                try await PostgresStore.schemaVersion(configuration: database.configuration())
                    == SchemaVersion(found: 4, known: known))
            let report = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(5)))
            #expect(report.applied == [5])
            #expect(report.version == SchemaVersion(found: 5, known: 5))
            #expect(
                try await PostgresStore.schemaVersion(configuration: database.configuration())
                    == SchemaVersion(found: 5, known: known))
            var after: [[[String?]]] = []
            for sql in Self.dumps { after.append(try await database.query(sql)) }
            #expect(after == before)
            let store = try await database.open()
            defer { store.close() }
            let code = AuthorizationCode(
                codeHash: "h", userID: "u2", provider: "apple", redirectURI: "https://app.example/cb",
                codeChallenge: "c", created: true, createdAt: Fixture.at(0), expiresAt: Fixture.at(60))
            try await store.oauth.saveCode(code)
            #expect(try await store.oauth.redeemCode(codeHash: "h", now: Fixture.at(1)) == .redeemed(code))
            try await database.query("DELETE FROM users WHERE id = 'u2'")
            #expect(try await database.query("SELECT count(*) FROM oauth_codes") == [["0"]])
            #expect(
                try await database.query(
                    """
                    SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()
                        AND tablename IN ('oauth_flows', 'oauth_codes') AND indexname LIKE '%by%' ORDER BY indexname
                    """) == [["oauth_codes_by_expiry"], ["oauth_codes_by_user"], ["oauth_flows_by_expiry"]])
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }
}
