import Foundation
import Store
import StoreTesting
import Testing

/// `UserStoring` gives the same answers on SQLite and PostgreSQL.
@Suite struct UserContractTests {
    @Test("creates, finds and lists users; a taken email or id is refused", arguments: Backend.allCases)
    func createFindList(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let bob = try await store.users.create(
                id: "b-1", email: "bob@example.com", passwordHash: Fixture.hash, role: "admin", tenantID: "t1",
                emailVerifiedAt: Fixture.at(5), now: Fixture.at(1))
            #expect(try await store.users.find(byEmail: "ada@example.com") == ada)
            #expect(try await store.users.find(byID: "b-1") == bob)
            #expect(bob.emailVerifiedAt == Fixture.at(5) && bob.createdAt == Fixture.at(1) && bob.tenantID == "t1")
            #expect(try await store.users.find(byEmail: "nobody@example.com") == nil)
            #expect(try await store.users.list() == [ada, bob])
            await #expect(throws: StoreError.emailTaken) {
                try await store.users.create(
                    id: "other", email: "ada@example.com", passwordHash: Fixture.hash, role: "user", tenantID: nil,
                    emailVerifiedAt: nil, now: Fixture.epoch)
            }
            await #expect(throws: StoreError.constraint(.primaryKey)) {
                try await store.users.create(
                    id: "b-1", email: "new@example.com", passwordHash: Fixture.hash, role: "user", tenantID: nil,
                    emailVerifiedAt: nil, now: Fixture.epoch)
            }
        }
    }

    @Test(
        "sets, replaces and clears a tenant (the operator's only); an unknown id is not found",
        arguments: Backend.allCases)
    func tenant(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            #expect(ada.tenantID == nil)
            try await store.users.setTenant(userID: ada.id, tenantID: "acme-corp")
            #expect(try await store.users.find(byID: ada.id)?.tenantID == "acme-corp")
            try await store.users.setTenant(userID: ada.id, tenantID: "é 😀 ' ; --")
            #expect(try await store.users.find(byID: ada.id)?.tenantID == "é 😀 ' ; --")
            try await store.users.setTenant(userID: ada.id, tenantID: nil)
            let cleared = try #require(try await store.users.find(byID: ada.id))
            #expect(cleared.tenantID == nil)
            #expect(cleared == ada, "nothing else changed")
            await #expect(throws: StoreError.notFound) {
                try await store.users.setTenant(userID: "missing", tenantID: "t")
            }
        }
    }

    @Test("replaces a password hash; an unknown id is not found", arguments: Backend.allCases)
    func passwordHash(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            try await store.users.updatePasswordHash(userID: ada.id, hash: "$argon2id$new")
            #expect(try await store.users.find(byID: ada.id)?.passwordHash == "$argon2id$new")
            await #expect(throws: StoreError.notFound) {
                try await store.users.updatePasswordHash(userID: "missing", hash: "x")
            }
        }
    }

    @Test("disabling keeps the first time, revokes every live session and blocks new ones", arguments: Backend.allCases)
    func disable(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let first = try await Fixture.session(store, ada)
            _ = try await Fixture.session(store, ada, at: 1)
            #expect(try await store.users.disable(email: try #require(ada.email), now: Fixture.at(10)) == 2)
            #expect(try await store.users.disable(email: try #require(ada.email), now: Fixture.at(20)) == 0)
            #expect(try await store.users.find(byID: ada.id)?.disabledAt == Fixture.at(10))
            #expect(try await store.sessions.find(sessionID: first.id)?.revokedAt == Fixture.at(10))
            await #expect(throws: StoreError.userDisabled) { try await Fixture.session(store, ada, at: 30) }
            await #expect(throws: StoreError.notFound) {
                try await store.users.disable(email: "nobody@example.com", now: Fixture.epoch)
            }
            let outcome = try await store.sessions.rotate(
                sessionID: first.id, presentedCounter: 0, now: Fixture.at(40), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
            #expect(outcome == .invalid)
        }
    }

    @Test(
        "customer ids: registered is the id, or the verified email when asked, unless set", arguments: Backend.allCases)
    func customerIDs(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            #expect(
                try await store.users.customerIDs(userID: ada.id, emailAsRegistered: true) == ["registered": ada.id])
            try await store.users.markEmailVerified(email: try #require(ada.email), now: Fixture.at(3))
            try await store.users.markEmailVerified(email: try #require(ada.email), now: Fixture.at(9))
            #expect(try await store.users.find(byID: ada.id)?.emailVerifiedAt == Fixture.at(3))
            #expect(
                try await store.users.customerIDs(userID: ada.id, emailAsRegistered: true) == ["registered": ada.email])
            #expect(
                try await store.users.customerIDs(userID: ada.id, emailAsRegistered: false) == ["registered": ada.id])
            try await store.users.setCustomerID(email: try #require(ada.email), key: "crm", value: "c-1")
            try await store.users.setCustomerID(email: try #require(ada.email), key: "crm", value: "c-2")
            try await store.users.setCustomerID(email: try #require(ada.email), key: "registered", value: "r-9")
            #expect(
                try await store.users.customerIDs(userID: ada.id, emailAsRegistered: true)
                    == ["registered": "r-9", "crm": "c-2"])
            #expect(try await store.users.customerIDs(userID: "missing", emailAsRegistered: true) == [:])
            await #expect(throws: StoreError.notFound) {
                try await store.users.setCustomerID(email: "nobody@example.com", key: "k", value: "v")
            }
            await #expect(throws: StoreError.notFound) {
                try await store.users.markEmailVerified(email: "nobody@example.com", now: Fixture.epoch)
            }
        }
    }
}
