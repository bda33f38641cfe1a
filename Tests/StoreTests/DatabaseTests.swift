import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

@Suite struct DatabaseTests {
    @Test("opening applies every migration once and records the version")
    func migrationsVersioned() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        for _ in 0..<3 {
            let database = try temporary.open()
            let version = try database.read { (connection: Connection) throws(StoreError) in
                try Migrator.userVersion(connection)
            }
            #expect(version == Schema.migrations.count)
            let tables = try database.read { (connection: Connection) throws(StoreError) in
                try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
                    .map { (row: Row) throws(StoreError) in try row.string(0) }
            }
            #expect(
                tables == [
                    "app_attest_keys", "auth_nonces", "customer_ids", "deleted_accounts", "email_codes",
                    "id_token_uses",
                    "identities", "integrity_challenges", "oauth_codes", "oauth_flows", "outbox", "passkey_challenges",
                    "passkeys", "sessions", "users",
                ])
            database.close()
        }
    }

    @Test("applies WAL, synchronous=FULL, foreign keys and secure_delete on the writer (and secure_delete on readers)")
    func pragmas() throws {
        try TemporaryDatabase.with { database, _ in
            let values = try database.withWriterConnection { (connection: Connection) throws(StoreError) in
                [
                    try connection.queryOne("PRAGMA journal_mode")?.string(0),
                    try connection.queryOne("PRAGMA synchronous")?.int64(0).description,
                    try connection.queryOne("PRAGMA foreign_keys")?.int64(0).description,
                    try connection.queryOne("PRAGMA secure_delete")?.int64(0).description,
                ]
            }
            #expect(values == ["wal", "2", "1", "1"])
            let reader = try database.read { (connection: Connection) throws(StoreError) in
                try connection.queryOne("PRAGMA secure_delete")?.int64(0)
            }
            #expect(reader == 1, "every connection, readers too")
        }
    }

    @Test("refuses a database written by a newer schema")
    func refusesNewerSchema() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        try database.withWriterConnection { (connection: Connection) throws(StoreError) in
            try connection.executeScript("PRAGMA user_version = 99")
        }
        database.close()
        #expect(throws: StoreError.schemaTooNew(found: 99, known: Schema.migrations.count)) {
            try temporary.open()
        }
    }

    @Test("a write rolls back when its body throws")
    func rollbackOnThrow() throws {
        try TemporaryDatabase.with { database, _ in
            #expect(throws: StoreError.notFound) {
                try database.write { (connection: Connection) throws(StoreError) in
                    try connection.execute(
                        "INSERT INTO users (id, email, password_hash, created_at) VALUES ('u', 'e', 'h', 0)")
                    throw StoreError.notFound
                }
            }
            let users = try UserStore(database: database).list()
            #expect(users.isEmpty)
        }
    }

    @Test("bad SQL is a misuse error, and the store keeps working")
    func badSQL() throws {
        try TemporaryDatabase.with { database, _ in
            #expect {
                try database.read { (connection: Connection) throws(StoreError) in
                    try connection.query("SELEKT 1")
                }
            } throws: { error in
                guard case .misuse = error as? StoreError else { return false }
                return true
            }
            #expect(throws: StoreError.misuse("one SQL statement at a time")) {
                try database.write { (connection: Connection) throws(StoreError) in
                    try connection.execute("DELETE FROM users; DROP TABLE users")
                }
            }
            let one = try database.read { (connection: Connection) throws(StoreError) in
                try connection.queryOne("SELECT 1")?.int64(0)
            }
            #expect(one == 1)
        }
    }

    @Test("an acknowledged write survives closing and reopening")
    func durableAcrossReopen() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let first = try temporary.open()
        let user = try Fixture.user(first)
        let session = try SessionStore(database: first).create(
            userID: user.id, userAgent: nil, ip: nil, now: Fixture.epoch, refreshTTL: .seconds(60),
            maxLifetime: .seconds(600))
        _ = try SessionStore(database: first).rotate(
            sessionID: session.id, presentedCounter: 0, now: Fixture.epoch, grace: .seconds(10),
            refreshTTL: .seconds(60))
        // A second instance sees it before the first closes (nothing is cached in memory) ...
        let second = try temporary.open()
        #expect(try SessionStore(database: second).find(sessionID: session.id)?.counter == 1)
        second.close()
        first.close()
        // ... and after both closed.
        let third = try temporary.open()
        defer { third.close() }
        #expect(try UserStore(database: third).find(byEmail: try #require(user.email)) == user)
        #expect(try SessionStore(database: third).find(sessionID: session.id)?.counter == 1)
    }

    @Test("the change token moves when another instance on the same file commits")
    func changeToken() throws {
        try TemporaryDatabase.with { database, temporary in
            let before = database.changeToken()
            #expect(database.changeToken() == before)
            let other = try temporary.open()
            defer { other.close() }
            try Fixture.user(other)
            let after = database.changeToken()
            #expect(after != before)
            try Fixture.user(database, email: "bob@example.com")
            #expect(database.changeToken() != after)
        }
    }

    @Test("async read and write hop off the cooperative pool and return values")
    func asyncVariants() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        defer { database.close() }
        let users = UserStore(database: database)
        let user = try await users.create(email: "async@example.com", passwordHash: Fixture.hash)
        let found = try await users.find(byID: user.id)
        #expect(found == user)
        let count = try await database.read { (connection: Connection) throws(StoreError) in
            try connection.queryOne("SELECT count(*) FROM users")?.int64(0)
        }
        #expect(count == 1)
    }

    @Test("a closed database reports unavailable")
    func closed() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        database.close()
        #expect(throws: StoreError.unavailable(.closed)) { try Fixture.user(database) }
        #expect(throws: StoreError.unavailable(.closed)) { try UserStore(database: database).list() }
    }

    @Test("creates the database's missing folders, answers a ping and reports no pending writes when idle")
    func folderAndPing() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let path = temporary.folder.appendingPathComponent("a/b/tokenvend.sqlite").path
        let database = try Database(configuration: .init(path: path))
        defer { database.close() }
        try await database.ping()
        try await UserStore(database: database).create(email: "p@example.com", passwordHash: Fixture.hash)
        #expect(database.pendingWrites == 0)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
