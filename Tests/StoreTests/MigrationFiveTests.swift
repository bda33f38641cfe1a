import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Migration 5 adds the browser sign-in tables to a version-4 database and keeps every row.
@Suite struct MigrationFiveTests {
    /// A file at schema version 4 with users, customer ids, sessions and an identity.
    static func versionFour(at path: String) throws -> [[Row]] {
        _ = try MigrationFourTests.versionThree(at: path)
        let connection = try Connection(path: path, flags: 0x2)
        try connection.executeScript("PRAGMA foreign_keys = ON")
        try Migrator.migrate(connection, to: Array(Schema.migrations.prefix(4)))
        try connection.executeScript(
            "INSERT INTO identities (provider, subject, user_id, email, created_at) VALUES ('apple', 's', 'u1', NULL, 3)"
        )
        #expect(try Migrator.userVersion(connection) == 4)
        return try MigrationFourTests.dump(connection) + [try connection.query(Self.identities)]
    }

    /// The identities' columns of version 4 (version 9 adds `refresh_token` and `email_forwarding`, NULL here).
    static let identities = "SELECT provider, subject, user_id, email, created_at FROM identities"

    @Test("a version-4 database migrates to 5 keeping every row; the new tables work and cascade with the user")
    func upgrades() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let before = try Self.versionFour(at: temporary.path)
        let database = try temporary.open()
        defer { database.close() }
        let after = try await database.read { (connection: Connection) throws(StoreError) in
            (
                try Migrator.userVersion(connection),
                try MigrationFourTests.dumps.map { sql throws(StoreError) in try connection.query(sql) }
                    + [try connection.query(Self.identities)],
                try connection.query(
                    "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('oauth_codes')"),
                try connection.query(
                    "SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'oauth%' ORDER BY name")
            )
        }
        #expect(after.0 == Schema.migrations.last?.version)  // 5, and the later steps on top
        #expect(after.1 == before)
        #expect(after.2 == [Row(values: [.text("users"), .text("user_id"), .text("id"), .text("CASCADE")])])
        #expect(
            after.3
                == ["oauth_codes_by_expiry", "oauth_codes_by_user", "oauth_flows_by_expiry"].map {
                    Row(values: [.text($0)])
                })
        let store = OAuthFlowStore(database: database)
        let code = AuthorizationCode(
            codeHash: "h", userID: "u2", provider: "google", redirectURI: "https://app.example/cb",
            codeChallenge: "c", created: false, createdAt: Date(storeMilliseconds: 1),
            expiresAt: Date(storeMilliseconds: 60_000))
        try await store.saveCode(code)
        #expect(try await store.redeemCode(codeHash: "h", now: Date(storeMilliseconds: 2)) == .redeemed(code))
        let remaining = try await database.write { (connection: Connection) throws(StoreError) in
            _ = try connection.execute("DELETE FROM users WHERE id = 'u2'")
            return try connection.queryOne("SELECT count(*) FROM oauth_codes")?.int64(0)
        }
        #expect(remaining == 0)
    }
}
