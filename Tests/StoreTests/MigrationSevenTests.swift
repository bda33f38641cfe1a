import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Migration 7 adds `auth_nonces` and `users.email_verified_by`, backfilled for verified emails: the provider
/// whose identity was created with the account, else the operator.
@Suite struct MigrationSevenTests {
    /// A file at schema version 6: an operator-verified user, a user an Apple identity made, an operator-verified
    /// user who linked a Google identity later, and an unverified user.
    static func versionSix(_ temporary: TemporaryDatabase) throws {
        try temporary.create(atVersion: 6, rows: rows)
    }

    /// The rows of `versionSix`, valid in both dialects.
    static let rows = """
        INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at)
        VALUES ('u-op', 'op@example.com', '$argon2id$a', 'user', NULL, NULL, 1, 1),
            ('u-apple', 'apple@example.com', NULL, 'user', NULL, NULL, 2, 2),
            ('u-linked', 'linked@example.com', '$argon2id$b', 'user', NULL, NULL, 3, 4),
            ('u-none', 'none@example.com', '$argon2id$c', 'user', NULL, NULL, 5, NULL),
            ('u-anon', NULL, NULL, 'user', NULL, NULL, 6, NULL);
        INSERT INTO identities (provider, subject, user_id, email, created_at)
        VALUES ('apple', 's-apple', 'u-apple', 'apple@example.com', 2),
            ('google', 's-linked', 'u-linked', 'linked@example.com', 9),
            ('apple', 's-anon', 'u-anon', NULL, 6);
        """

    /// What step 7 writes for the rows of `rows`, by user id.
    static let expected: [String: String?] = [
        "u-op": "operator", "u-apple": "provider:apple", "u-linked": "operator", "u-none": nil, "u-anon": nil,
    ]

    @Test("a version-6 database migrates to 7: the source of each verified email is backfilled, nonces work")
    func upgrades() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        try Self.versionSix(temporary)
        let database = try temporary.open()
        defer { database.close() }
        let (version, sources) = try await database.read { (connection: Connection) throws(StoreError) in
            (
                try Migrator.userVersion(connection),
                try connection.query("SELECT id, email_verified_by FROM users ORDER BY id")
            )
        }
        #expect(version == Schema.migrations.last?.version)  // 7, and any later step on top
        var found: [String: String?] = [:]
        for row in sources { found[try row.string(0)] = try row.optionalString(1) }
        #expect(found == Self.expected)
        let users = UserStore(database: database)
        #expect(try await users.find(byID: "u-apple")?.emailVerifiedBy == .provider("apple"))
        #expect(try await users.find(byID: "u-op")?.emailVerifiedBy == .operator)
        let identities = IdentityStore(database: database)
        let now = Date(storeMilliseconds: 10)
        #expect(
            try await identities.issueNonce(
                hash: "h", expiresAt: now.addingTimeInterval(600), maxPending: 1, now: now))
        #expect(try await identities.consumeNonce(hash: "h", now: now))
    }

    @Test("a snapshot of an unmigrated version-6 file computes the sources as step 7 would write them")
    func snapshotOfVersionSix() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        try Self.versionSix(temporary)
        let snapshot = try SQLiteStore.snapshot(readingFileAt: temporary.path)
        var found: [String: String?] = [:]
        for user in snapshot.users { found.updateValue(user.emailVerifiedBy.map(\.storedValue), forKey: user.id) }
        #expect(found == Self.expected)
    }
}
