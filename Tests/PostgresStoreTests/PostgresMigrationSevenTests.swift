import Foundation
import SQLiteStore
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Migration 7 on PostgreSQL: `auth_nonces`, and `users.email_verified_by` backfilled as on SQLite; `db copy`
/// carries the column, from a migrated store and from an unmigrated version-6 file alike.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationSevenTests {
    /// The rows of the SQLite test (`MigrationSevenTests.rows`), and what step 7 writes for them.
    static let rows = """
        INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at)
        VALUES ('u-op', 'op@example.com', '$argon2id$a', 'user', NULL, NULL, 1, 1),
            ('u-apple', 'apple@example.com', NULL, 'user', NULL, NULL, 2, 2),
            ('u-linked', 'linked@example.com', '$argon2id$b', 'user', NULL, NULL, 3, 4),
            ('u-none', 'none@example.com', '$argon2id$c', 'user', NULL, NULL, 5, NULL),
            ('u-anon', NULL, NULL, 'user', NULL, NULL, 6, NULL);
        --
        INSERT INTO identities (provider, subject, user_id, email, created_at)
        VALUES ('apple', 's-apple', 'u-apple', 'apple@example.com', 2),
            ('google', 's-linked', 'u-linked', 'linked@example.com', 9),
            ('apple', 's-anon', 'u-anon', NULL, 6);
        """
    static let expected: [[String?]] = [
        ["u-anon", nil], ["u-apple", "provider:apple"], ["u-linked", "operator"], ["u-none", nil],
        ["u-op", "operator"],
    ]

    @Test("a version-6 database migrates to 7: the source of each verified email is backfilled, nonces work")
    func upgrades() async throws {
        let database = try await PostgresTestDatabase.make()
        do {
            let pool = try PostgresTestDatabase.pool(database.url)
            defer { pool.close() }
            _ = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(6)))
            for statement in Self.rows.split(separator: "--\n") { try await database.query(String(statement)) }
            let report = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(7)))
            #expect(report.applied == [7])
            #expect(try await database.query("SELECT id, email_verified_by FROM users ORDER BY id") == Self.expected)
            let store = try await database.open()
            defer { store.close() }
            #expect(try await store.users.find(byID: "u-apple")?.emailVerifiedBy == .provider("apple"))
            #expect(
                try await store.identities.issueNonce(
                    hash: "h", expiresAt: Fixture.at(600), maxPending: 1, now: Fixture.at(0)))
            #expect(try await store.identities.consumeNonce(hash: "h", now: Fixture.at(1)))
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }

    @Test("db copy carries who verified each email, and never lets a copy weaken an operator's verification")
    func copyCarriesSource() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-copy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("t.sqlite").path))
        defer { sqlite.close() }
        _ = try await sqlite.users.create(
            id: "u-op", email: "op@example.com", passwordHash: Fixture.hash, role: "user", tenantID: nil,
            emailVerifiedAt: Fixture.at(0), now: Fixture.at(0))
        _ = try await sqlite.identities.createUser(
            id: "u-corp", email: "corp@example.com", emailVerifiedAt: Fixture.at(1), role: "user", provider: "corp",
            subject: "s", now: Fixture.at(1))
        _ = try await sqlite.users.create(
            id: "u-plain", email: "plain@example.com", passwordHash: Fixture.hash, role: "user", tenantID: nil,
            emailVerifiedAt: nil, now: Fixture.at(2))
        let snapshot = try await sqlite.snapshot()
        let database = try await PostgresTestDatabase.make()
        do {
            let target = try await database.open()
            defer { target.close() }
            _ = try await target.copy(from: snapshot, replacing: false)
            #expect(try await target.users.list() == (try await sqlite.users.list()))
            #expect(
                try await database.query("SELECT id, email_verified_by FROM users ORDER BY id")
                    == [["u-corp", "provider:corp"], ["u-op", "operator"], ["u-plain", nil]])
            // The target's operator verified u-corp meanwhile: copying again keeps that.
            try await target.users.markEmailVerified(email: "corp@example.com", now: Fixture.at(3))
            _ = try await target.copy(from: snapshot, replacing: false)
            #expect(try await target.users.find(byID: "u-corp")?.emailVerifiedBy == .operator)
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }
}
