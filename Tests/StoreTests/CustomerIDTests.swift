import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

@Suite struct CustomerIDTests {
    @Test("a verified email is the registered id only when asked; an explicit registered id always wins")
    func verifiedEmail() throws {
        try TemporaryDatabase.with { database, _ in
            let users = UserStore(database: database)
            let verified = try users.create(
                email: "ada@example.com", passwordHash: Fixture.hash, emailVerifiedAt: Fixture.epoch, now: Fixture.epoch
            )
            #expect(verified.isEmailVerified)
            #expect(try users.find(byID: verified.id)?.emailVerifiedAt == Fixture.epoch)
            #expect(try users.customerIDs(userID: verified.id) == ["registered": verified.id])
            #expect(
                try users.customerIDs(userID: verified.id, emailAsRegistered: true) == ["registered": "ada@example.com"]
            )
            let unverified = try users.create(email: "bob@example.com", passwordHash: Fixture.hash)
            #expect(
                try users.customerIDs(userID: unverified.id, emailAsRegistered: true) == ["registered": unverified.id])
            try users.markEmailVerified(email: "bob@example.com", now: Fixture.epoch)
            #expect(
                try users.customerIDs(userID: unverified.id, emailAsRegistered: true) == [
                    "registered": "bob@example.com"
                ])
            try users.setCustomerID(email: "bob@example.com", key: "registered", value: "CRM-7")
            #expect(try users.customerIDs(userID: unverified.id, emailAsRegistered: true) == ["registered": "CRM-7"])
            #expect(try users.customerIDs(userID: "no-such-user", emailAsRegistered: true) == [:])
            #expect(throws: StoreError.notFound) { try users.markEmailVerified(email: "nobody@example.com") }
        }
    }

    @Test("migration 2 keeps a version-1 database working: emails unverified, automatic registered = email rows gone")
    func migratesVersionOne() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        do {
            // SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE: a file at schema version 1, as tokenvend wrote it before.
            let connection = try Connection(path: temporary.path, flags: 0x2 | 0x4)
            try Migrator.migrate(connection, to: Array(Schema.migrations.prefix(1)))
            try connection.executeScript(
                """
                INSERT INTO users (id, email, password_hash, created_at) VALUES
                    ('u1', 'ada@example.com', 'h', 1), ('u2', 'bob@example.com', 'h', 2);
                INSERT INTO customer_ids (user_id, key, value) VALUES
                    ('u1', 'registered', 'ada@example.com'), ('u1', 'crm', 'C-1'),
                    ('u2', 'registered', 'B-42');
                INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
                    VALUES ('s1', 'u1', 1, 1, 10, 20);
                """)
            #expect(try Migrator.userVersion(connection) == 1)
        }
        let database = try temporary.open()
        defer { database.close() }
        let users = UserStore(database: database)
        let ada = try #require(try users.find(byID: "u1"))
        #expect(ada.email == "ada@example.com" && ada.emailVerifiedAt == nil)
        #expect(try users.customerIDs(userID: "u1", emailAsRegistered: true) == ["registered": "u1", "crm": "C-1"])
        #expect(try users.customerIDs(userID: "u2", emailAsRegistered: true) == ["registered": "B-42"])
        #expect(try SessionStore(database: database).find(sessionID: "s1")?.userID == "u1")
        let version = try database.read { (connection: Connection) throws(StoreError) in
            try Migrator.userVersion(connection)
        }
        #expect(version == Schema.migrations.count)
    }
}
