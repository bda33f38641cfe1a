import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

@Suite struct FailureTests {
    /// Fills the database until `max_page_count` stops it.
    static func fill(_ database: Database) -> StoreError? {
        let users = UserStore(database: database)
        for index in 0..<10_000 {
            do throws(StoreError) {
                try users.create(
                    email: "filler\(index)@example.com", passwordHash: String(repeating: "x", count: 500))
            } catch {
                return error
            }
        }
        return nil
    }

    @Test("a full disk fails writes with unavailable, reads keep working, and raising the limit recovers")
    func diskFull() throws {
        try TemporaryDatabase.with { database, _ in
            let ada = try Fixture.user(database)
            try database.withWriterConnection { (connection: Connection) throws(StoreError) in
                let pages = try connection.queryOne("PRAGMA page_count")?.int64(0) ?? 0
                _ = try connection.query("PRAGMA max_page_count = \(pages + 2)")
            }
            #expect(Self.fill(database) == .unavailable(.diskFull))
            let users = UserStore(database: database)
            #expect(try users.find(byEmail: try #require(ada.email)) == ada)
            #expect(throws: StoreError.unavailable(.diskFull)) {
                try SessionStore(database: database).create(
                    userID: ada.id, userAgent: String(repeating: "u", count: 20_000), ip: nil, refreshTTL: .seconds(60),
                    maxLifetime: .seconds(600))
            }
            try database.withWriterConnection { (connection: Connection) throws(StoreError) in
                _ = try connection.query("PRAGMA max_page_count = 1073741823")
            }
            let bob = try Fixture.user(database, email: "bob@example.com")
            #expect(try users.find(byID: bob.id) == bob)
        }
    }

    @Test("a read-only database fails writes with unavailable, reads keep working, and it recovers")
    func readOnly() throws {
        try TemporaryDatabase.with { database, _ in
            let ada = try Fixture.user(database)
            try database.withWriterConnection { (connection: Connection) throws(StoreError) in
                try connection.executeScript("PRAGMA query_only = ON")
            }
            #expect(throws: StoreError.unavailable(.readOnly)) { try Fixture.user(database, email: "bob@example.com") }
            let adaEmail = try #require(ada.email)
            #expect(throws: StoreError.unavailable(.readOnly)) {
                try UserStore(database: database).disable(email: adaEmail)
            }
            #expect(try UserStore(database: database).find(byEmail: adaEmail) == ada)
            try database.withWriterConnection { (connection: Connection) throws(StoreError) in
                try connection.executeScript("PRAGMA query_only = OFF")
            }
            #expect(try UserStore(database: database).disable(email: adaEmail) == 0)
        }
    }

    @Test("a database opened read-only (write-protected file) recovers by reopening the writer")
    func reopensReadOnlyWriter() throws {
        try TemporaryDatabase.with { database, temporary in
            try Fixture.user(database)
            // Swap in a writer opened read-only, as SQLite does when the file is write-protected at open time.
            try database.replaceWriterForTesting(
                try Connection(path: temporary.path, flags: 0x0000_0001 /* SQLITE_OPEN_READONLY */))
            #expect(throws: StoreError.unavailable(.readOnly)) { try Fixture.user(database, email: "bob@example.com") }
            // The failure made the writer reopen read-write, so the next write succeeds without a restart.
            let bob = try Fixture.user(database, email: "bob@example.com")
            #expect(try UserStore(database: database).find(byID: bob.id) == bob)
        }
    }

    @Test("a write lock held past the busy timeout gives unavailable busy, not a crash")
    func busyTimeout() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let holder = try temporary.open()
        let waiter = try temporary.open(busyTimeout: .milliseconds(100))
        defer {
            holder.close()
            waiter.close()
        }
        _ = try holder.write { (_: Connection) throws(StoreError) in
            #expect(throws: StoreError.unavailable(.busy)) { try Fixture.user(waiter) }
        }
        #expect(try Fixture.user(waiter).email == "ada@example.com")
    }
}
