import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

@Suite struct UserStoreTests {
    @Test("creates a user whose registered customer id is its user id, and finds it by email and id")
    func createAndFind() throws {
        try TemporaryDatabase.with { database, _ in
            let users = UserStore(database: database)
            let user = try users.create(
                email: "ada@example.com", passwordHash: Fixture.hash, role: "admin", tenantID: "t1", now: Fixture.epoch)
            #expect(try users.find(byEmail: "ada@example.com") == user)
            #expect(try users.find(byID: user.id) == user)
            #expect(try users.find(byEmail: "nobody@example.com") == nil)
            #expect(try users.customerIDs(userID: user.id) == ["registered": user.id])
            #expect(try users.customerIDs(userID: user.id, emailAsRegistered: true) == ["registered": user.id])
            #expect(!user.isEmailVerified)
            #expect(user.role == "admin" && user.tenantID == "t1" && !user.isDisabled)
            #expect(!user.description.contains(Fixture.hash))
        }
    }

    @Test("a taken email is reported as emailTaken and changes nothing")
    func emailUnique() throws {
        try TemporaryDatabase.with { database, _ in
            let users = UserStore(database: database)
            try Fixture.user(database)
            #expect(throws: StoreError.emailTaken) {
                try users.create(email: "ada@example.com", passwordHash: Fixture.hash)
            }
            #expect(try users.list().count == 1)
        }
    }

    @Test("values full of SQL metacharacters are stored verbatim")
    func metacharacters() throws {
        try TemporaryDatabase.with { database, _ in
            let users = UserStore(database: database)
            let email = "o'brien\"; DROP TABLE users; --@example.com"
            let tenant = "%_\\ ' \" ; -- /* */ \u{0} é ✓"
            let user = try users.create(email: email, passwordHash: "?1 :a @b $c", tenantID: tenant)
            let found = try #require(try users.find(byEmail: email))
            #expect(found == user)
            #expect(found.tenantID == tenant && found.passwordHash == "?1 :a @b $c")
            try users.setCustomerID(email: email, key: "k'); --", value: "v\"%")
            #expect(try users.customerIDs(userID: user.id)["k'); --"] == "v\"%")
            #expect(try users.find(byEmail: "%") == nil)
        }
    }

    @Test("lists users, sets customer ids and replaces password hashes")
    func listAndUpdate() throws {
        try TemporaryDatabase.with { database, _ in
            let users = UserStore(database: database)
            let ada = try Fixture.user(database)
            let bob = try Fixture.user(database, email: "bob@example.com")
            #expect(try users.list().map(\.email) == ["ada@example.com", "bob@example.com"])
            try users.setCustomerID(email: try #require(bob.email), key: "registered", value: "B-1")
            try users.setCustomerID(email: try #require(bob.email), key: "crm", value: "42")
            #expect(try users.customerIDs(userID: bob.id) == ["registered": "B-1", "crm": "42"])
            try users.updatePasswordHash(userID: ada.id, hash: "$argon2id$new")
            #expect(try users.find(byID: ada.id)?.passwordHash == "$argon2id$new")
            #expect(throws: StoreError.notFound) { try users.updatePasswordHash(userID: "nope", hash: "x") }
            #expect(throws: StoreError.notFound) { try users.setCustomerID(email: "no@x", key: "k", value: "v") }
            #expect(throws: StoreError.notFound) { try users.disable(email: "no@x") }
        }
    }

    @Test("disabling a user revokes all its sessions in the same transaction and keeps the first date")
    func disableRevokes() throws {
        try TemporaryDatabase.with { database, _ in
            let users = UserStore(database: database)
            let sessions = SessionStore(database: database)
            let user = try Fixture.user(database)
            for _ in 0..<3 {
                try sessions.create(
                    userID: user.id, userAgent: "ua", ip: "127.0.0.1", now: Fixture.epoch, refreshTTL: .seconds(60),
                    maxLifetime: .seconds(600))
            }
            #expect(try users.disable(email: try #require(user.email), now: Fixture.epoch) == 3)
            #expect(try users.disable(email: try #require(user.email), now: Fixture.epoch.addingTimeInterval(5)) == 0)
            #expect(try users.find(byID: user.id)?.disabledAt == Fixture.epoch)
            #expect(try sessions.liveSessions(userID: user.id, now: Fixture.epoch).isEmpty)
            #expect(throws: StoreError.userDisabled) {
                try sessions.create(
                    userID: user.id, userAgent: nil, ip: nil, refreshTTL: .seconds(60), maxLifetime: .seconds(600))
            }
            #expect(throws: StoreError.notFound) {
                try sessions.create(
                    userID: "nobody", userAgent: nil, ip: nil, refreshTTL: .seconds(60), maxLifetime: .seconds(600))
            }
        }
    }
}
