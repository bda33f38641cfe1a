import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Migration 4 rebuilds `users` (email and password hash nullable) without losing a row or a foreign key.
@Suite struct MigrationFourTests {
    /// Every row of the tables that reference `users`, and `users` itself, in a fixed order.
    static let dumps = [
        // The columns of version 6: version 7 adds email_verified_by (see the MigrationSeven tests).
        "SELECT id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at FROM users ORDER BY id",
        "SELECT * FROM customer_ids ORDER BY user_id, key",
        // The columns of version 10: version 11 adds dpop_jkt (see the MigrationEleven tests).
        """
        SELECT id, user_id, created_at, last_used_at, refresh_expires_at, expires_at, revoked_at, user_agent, ip,
        counter, rotated_at FROM sessions ORDER BY id
        """,
    ]

    static func dump(_ connection: Connection) throws -> [[Row]] {
        try dumps.map { sql in try connection.query(sql) }
    }

    /// A file at schema version 3 with users, customer ids and sessions, as the previous release leaves it.
    static func versionThree(at path: String) throws -> [[Row]] {
        // SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let connection = try Connection(path: path, flags: 0x2 | 0x4)
        try connection.executeScript("PRAGMA foreign_keys = ON")
        try Migrator.migrate(connection, to: Array(Schema.migrations.prefix(3)))
        try connection.executeScript(
            """
            INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at)
            VALUES ('u1', 'ada@example.com', '$argon2id$a', 'admin', 't1', NULL, 1, 5),
                ('u2', 'bob@example.com', '$argon2id$b', 'user', NULL, 7, 2, NULL);
            INSERT INTO customer_ids (user_id, key, value) VALUES
                ('u1', 'crm', 'C-1'), ('u1', 'registered', 'R-1'), ('u2', 'crm', 'C-2');
            INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at, revoked_at,
                user_agent, ip, counter, rotated_at)
            VALUES ('s1', 'u1', 1, 2, 10, 20, NULL, 'ua', '::1', 3, 2),
                ('s2', 'u1', 1, 1, 10, 20, 4, NULL, NULL, 0, NULL),
                ('s3', 'u2', 2, 2, 10, 20, NULL, 'ub', '127.0.0.1', 1, NULL);
            """)
        #expect(try Migrator.userVersion(connection) == 3)
        return try dump(connection)
    }

    @Test("a version-3 database migrates to 4 keeping every user, customer id and session")
    func keepsRows() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let before = try Self.versionThree(at: temporary.path)
        let database = try temporary.open()
        defer { database.close() }
        let after = try database.read { (connection: Connection) throws(StoreError) in
            (
                try Migrator.userVersion(connection),
                try Self.dumps.map { sql throws(StoreError) in try connection.query(sql) },
                try connection.query("PRAGMA foreign_key_check"),
                try connection.query(
                    "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('sessions')"),
                try connection.query(
                    "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('customer_ids')")
            )
        }
        // Opening migrates to the latest version (4 and every later step).
        #expect(after.0 == Schema.migrations.last?.version)
        #expect(after.1 == before)
        #expect(after.1.map(\.count) == [2, 3, 3])
        #expect(after.2.isEmpty)
        let cascade = [Row(values: [.text("users"), .text("user_id"), .text("id"), .text("CASCADE")])]
        #expect(after.3 == cascade && after.4 == cascade)
        // The rebuilt table still enforces what it did: unique emails, a primary key.
        let users = UserStore(database: database)
        #expect(throws: StoreError.emailTaken) {
            try users.create(email: "ada@example.com", passwordHash: "h")
        }
        #expect(try users.find(byEmail: "bob@example.com")?.disabledAt == Date(storeMilliseconds: 7))
    }

    @Test("after migration 4 foreign keys are on again: deleting a user still cascades to its sessions and ids")
    func foreignKeysStillCascade() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        _ = try Self.versionThree(at: temporary.path)
        let database = try temporary.open()
        defer { database.close() }
        let remaining = try database.write { (connection: Connection) throws(StoreError) in
            try connection.execute("DELETE FROM users WHERE id = 'u1'")
            return (
                try connection.queryOne("SELECT count(*) FROM sessions")?.int64(0),
                try connection.queryOne("SELECT count(*) FROM customer_ids")?.int64(0),
                try connection.queryOne("PRAGMA foreign_keys")?.int64(0)
            )
        }
        #expect(remaining.0 == 1 && remaining.1 == 1 && remaining.2 == 1)
        #expect(try SessionStore(database: database).find(sessionID: "s3")?.userID == "u2")
        // And a session of an unknown user is refused.
        #expect(throws: StoreError.constraint(.foreignKey)) {
            try database.write { (connection: Connection) throws(StoreError) in
                try connection.execute(
                    """
                    INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
                    VALUES ('s9', 'ghost', 1, 1, 10, 20)
                    """)
            }
        }
    }

    @Test("migration 4 deletes the sessions and customer ids of a user deleted with foreign keys off, and upgrades")
    func orphansDoNotBlock() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let before = try Self.versionThree(at: temporary.path)
        do {
            // What `DELETE FROM users` does in the sqlite3 shell, whose foreign keys are off by default.
            let connection = try Connection(path: temporary.path, flags: 0x2)
            try connection.executeScript("PRAGMA foreign_keys = OFF")
            try connection.executeScript("DELETE FROM users WHERE id = 'u2'")
            #expect(try connection.query("PRAGMA foreign_key_check").count == 2)
        }
        let database = try temporary.open()
        defer { database.close() }
        let after = try database.read { (connection: Connection) throws(StoreError) in
            (
                try Migrator.userVersion(connection),
                try Self.dumps.map { sql throws(StoreError) in try connection.query(sql) },
                try connection.query("PRAGMA foreign_key_check")
            )
        }
        // Opening migrates to the latest version (4 and every later step).
        #expect(after.0 == Schema.migrations.last?.version)
        #expect(after.2.isEmpty)
        // ada's rows are all kept; bob's orphans are gone.
        #expect(after.1[0] == [before[0][0]])
        #expect(after.1[1] == Array(before[1].prefix(2)))
        #expect(after.1[2] == Array(before[2].prefix(2)))
    }

    @Test("after migration 4 a user may have neither email nor password hash")
    func nullableColumns() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        _ = try Self.versionThree(at: temporary.path)
        let database = try temporary.open()
        defer { database.close() }
        let users = UserStore(database: database)
        let first = try users.create(id: "n1", email: nil, passwordHash: nil, now: Date(storeMilliseconds: 9))
        let second = try users.create(id: "n2", email: nil, passwordHash: nil, now: Date(storeMilliseconds: 9))
        #expect(try users.find(byID: "n1") == first && first.email == nil && first.passwordHash == nil)
        #expect(try users.list().map(\.id) == ["u1", "u2", "n1", "n2"])
        #expect(second.email == nil)
    }

    @Test("a table-rebuilding step that leaves a dangling reference is rolled back, foreign keys on again")
    func foreignKeyCheckRollsBack() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        _ = try Self.versionThree(at: temporary.path)
        let connection = try Connection(path: temporary.path, flags: 0x2)
        try connection.executeScript("PRAGMA foreign_keys = ON")
        let broken = Migration(
            version: Schema.migrations.count + 1,
            sqlite: """
                INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
                VALUES ('s9', 'ghost', 1, 1, 10, 20);
                """,
            postgres: "", rebuildsTables: true)
        #expect(throws: StoreError.constraint(.foreignKey)) {
            try Migrator.migrate(connection, to: Schema.migrations + [broken])
        }
        #expect(try Migrator.userVersion(connection) == Schema.migrations.count)
        #expect(try connection.queryOne("SELECT count(*) FROM sessions WHERE id = 's9'")?.int64(0) == 0)
        #expect(try connection.queryOne("PRAGMA foreign_keys")?.int64(0) == 1)
        #expect(!connection.inTransaction)
    }
}
