import Foundation
import Store
import StoreTesting
import Testing

/// `IdentityStoring` gives the same answers on SQLite and PostgreSQL.
@Suite(.timeLimit(.minutes(1))) struct IdentityContractTests {
    @Test(
        "creates a user from an identity, finds it by the identity and lists its identities",
        arguments: Backend.allCases)
    func createFindList(backend: Backend) async throws {
        try await backend.with { store in
            let (user, created) = try await store.identities.createUser(
                id: "u-1", email: "ada@example.com", emailVerifiedAt: Fixture.at(1), role: "user", provider: "apple",
                subject: "001.abc", now: Fixture.at(1))
            #expect(created)
            #expect(user.id == "u-1" && user.email == "ada@example.com" && user.passwordHash == nil)
            #expect(user.emailVerifiedAt == Fixture.at(1) && user.createdAt == Fixture.at(1) && user.role == "user")
            #expect(try await store.identities.user(provider: "apple", subject: "001.abc") == user)
            #expect(try await store.users.find(byID: "u-1") == user)
            #expect(try await store.identities.user(provider: "google", subject: "001.abc") == nil)
            #expect(try await store.identities.user(provider: "apple", subject: "001.ABC") == nil)
            try await store.identities.link(
                provider: "google", subject: "1234567890", userID: "u-1", email: nil, now: Fixture.at(2))
            #expect(try await store.identities.user(provider: "google", subject: "1234567890") == user)
            #expect(
                try await store.identities.identities(userID: "u-1") == [
                    Identity(
                        provider: "apple", subject: "001.abc", userID: "u-1", email: "ada@example.com",
                        createdAt: Fixture.at(1)),
                    Identity(
                        provider: "google", subject: "1234567890", userID: "u-1", email: nil,
                        createdAt: Fixture.at(2)),
                ])
            #expect(try await store.identities.identities(userID: "nobody").isEmpty)
        }
    }

    @Test(
        "createUser stores the tenant given, none by default; a linked identity's user keeps its own",
        arguments: Backend.allCases)
    func createWithTenant(backend: Backend) async throws {
        try await backend.with { store in
            let (user, created) = try await store.identities.createUser(
                id: "u-t", email: "t@example.com", emailVerifiedAt: Fixture.at(1), role: "user", tenantID: "acme",
                provider: "apple", subject: "s-t", now: Fixture.at(1))
            #expect(created && user.tenantID == "acme")
            #expect(try await store.users.find(byID: "u-t")?.tenantID == "acme")
            #expect(try await store.identities.user(provider: "apple", subject: "s-t")?.tenantID == "acme")
            let (again, createdAgain) = try await store.identities.createUser(
                id: "u-t2", email: "t@example.com", emailVerifiedAt: Fixture.at(2), role: "user", tenantID: "globex",
                provider: "apple", subject: "s-t", now: Fixture.at(2))
            #expect(!createdAgain && again.id == "u-t" && again.tenantID == "acme")
            let (plain, _) = try await store.identities.createUser(
                id: "u-n", email: nil, emailVerifiedAt: nil, role: "user", provider: "apple", subject: "s-n",
                now: Fixture.at(1))
            #expect(plain.tenantID == nil)
            #expect(try await store.users.find(byID: "u-n")?.tenantID == nil)
        }
    }

    @Test("createUser without an email records no verified time", arguments: Backend.allCases)
    func noEmailNoVerifiedTime(backend: Backend) async throws {
        try await backend.with { store in
            let (user, created) = try await store.identities.createUser(
                id: "u-nv", email: nil, emailVerifiedAt: Fixture.at(1), role: "user", provider: "apple",
                subject: "s-nv", now: Fixture.at(1))
            #expect(created && user.emailVerifiedAt == nil && !user.isEmailVerified)
            #expect(try await store.users.find(byID: "u-nv")?.emailVerifiedAt == nil)
        }
    }

    @Test("a user without an email or password is stored, listed and answered as such", arguments: Backend.allCases)
    func withoutEmail(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let (user, created) = try await store.identities.createUser(
                id: "u-anon", email: nil, emailVerifiedAt: nil, role: "user", provider: "apple", subject: "s-1",
                now: Fixture.at(1))
            let (other, _) = try await store.identities.createUser(
                id: "u-anon2", email: nil, emailVerifiedAt: nil, role: "user", provider: "apple", subject: "s-2",
                now: Fixture.at(1))
            #expect(created && user.email == nil && user.passwordHash == nil)
            #expect(try await store.users.find(byID: "u-anon") == user)
            // Both sort after the users with an email created at the same time: NULL orders alike on both.
            #expect(try await store.users.list() == [ada, user, other])
            // No email: the derived `registered` id is the user id, whatever the switch.
            #expect(
                try await store.users.customerIDs(userID: "u-anon", emailAsRegistered: true) == ["registered": "u-anon"]
            )
        }
    }

    @Test(
        "linking a linked identity is a primary-key conflict; linking to an unknown user is not found",
        arguments: Backend.allCases)
    func linkConflicts(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            try await store.identities.link(
                provider: "apple", subject: "s", userID: ada.id, email: nil, now: Fixture.at(1))
            for userID in [ada.id, bob.id] {
                await #expect(throws: StoreError.constraint(.primaryKey)) {
                    try await store.identities.link(
                        provider: "apple", subject: "s", userID: userID, email: nil, now: Fixture.at(2))
                }
            }
            await #expect(throws: StoreError.notFound) {
                try await store.identities.link(
                    provider: "google", subject: "s", userID: "missing", email: nil, now: Fixture.at(2))
            }
            #expect(try await store.identities.user(provider: "apple", subject: "s") == ada)
        }
    }

    @Test(
        "createUser for a linked identity answers its user with created false and creates nothing",
        arguments: Backend.allCases)
    func createLinked(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            try await store.identities.link(
                provider: "apple", subject: "s", userID: ada.id, email: nil, now: Fixture.at(1))
            let (user, created) = try await store.identities.createUser(
                id: "u-new", email: "new@example.com", emailVerifiedAt: nil, role: "user", provider: "apple",
                subject: "s", now: Fixture.at(2))
            #expect(!created && user == ada)
            #expect(try await store.users.find(byID: "u-new") == nil)
            #expect(try await store.users.list() == [ada])
        }
    }

    @Test("createUser with another user's email is .emailTaken and leaves no identity", arguments: Backend.allCases)
    func createEmailTaken(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            await #expect(throws: StoreError.emailTaken) {
                try await store.identities.createUser(
                    id: "u-new", email: "ada@example.com", emailVerifiedAt: Fixture.at(1), role: "user",
                    provider: "google", subject: "g-1", now: Fixture.at(1))
            }
            #expect(try await store.identities.user(provider: "google", subject: "g-1") == nil)
            #expect(try await store.users.list() == [ada])
        }
    }

    @Test("concurrent createUser calls for one identity make one user, created true once", arguments: Backend.allCases)
    func concurrentCreate(backend: Backend) async throws {
        try await backend.with { store in
            // Several rounds, each a burst for a new identity, so that the calls really overlap somewhere.
            for round in 0..<20 {
                let subject = "race-\(round)"
                let results = try await withThrowingTaskGroup(of: (user: User, created: Bool).self) { group in
                    for index in 0..<8 {
                        group.addTask {
                            try await store.identities.createUser(
                                id: "u-\(round)-\(index)", email: nil, emailVerifiedAt: nil, role: "user",
                                provider: "apple", subject: subject, now: Fixture.at(1))
                        }
                    }
                    var results: [(user: User, created: Bool)] = []
                    for try await result in group { results.append(result) }
                    return results
                }
                #expect(results.filter(\.created).count == 1)
                #expect(Set(results.map(\.user.id)).count == 1)
                let winner = try #require(results.first(where: \.created)?.user)
                #expect(try await store.identities.user(provider: "apple", subject: subject) == winner)
            }
            #expect(try await store.users.list().count == 20)
        }
    }

    @Test(
        "link racing createUser for one identity: one wins, createUser answers the linked user, never an error",
        arguments: Backend.allCases)
    func linkRacesCreate(backend: Backend) async throws {
        enum Outcome: Sendable {
            case linked, linkRefused
            case answered(User, created: Bool)
        }
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            for round in 0..<20 {
                let subject = "link-race-\(round)"
                let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group -> [Outcome] in
                    for index in 0..<8 {
                        group.addTask { () async throws -> Outcome in
                            guard index.isMultiple(of: 2) else {
                                let (user, created) = try await store.identities.createUser(
                                    id: "u-\(round)-\(index)", email: nil, emailVerifiedAt: nil, role: "user",
                                    provider: "apple", subject: subject, now: Fixture.at(1))
                                return .answered(user, created: created)
                            }
                            do {
                                try await store.identities.link(
                                    provider: "apple", subject: subject, userID: ada.id, email: nil,
                                    now: Fixture.at(1))
                                return .linked
                            } catch StoreError.constraint(.primaryKey) {
                                return .linkRefused
                            }
                        }
                    }
                    var outcomes: [Outcome] = []
                    for try await outcome in group { outcomes.append(outcome) }
                    return outcomes
                }
                var linked = 0
                var createdIDs: [String] = []
                var answeredIDs: Set<String> = []
                for outcome in outcomes {
                    switch outcome {
                    case .linked: linked += 1
                    case .linkRefused: break
                    case .answered(let user, let created):
                        answeredIDs.insert(user.id)
                        if created { createdIDs.append(user.id) }
                    }
                }
                // Exactly one winner, and every createUser answers the identity's owner.
                #expect(linked + createdIDs.count == 1)
                let owner = try #require(try await store.identities.user(provider: "apple", subject: subject))
                #expect(owner.id == (linked == 1 ? ada.id : createdIDs.first))
                #expect(answeredIDs == [owner.id])
            }
        }
    }

    @Test("unlink removes a link and answers whether there was one", arguments: Backend.allCases)
    func unlink(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            try await store.identities.link(
                provider: "apple", subject: "s", userID: ada.id, email: nil, now: Fixture.at(1))
            let removed = try await store.identities.unlink(provider: "apple", subject: "s", userID: ada.id)
            #expect(removed)
            #expect(try await store.identities.user(provider: "apple", subject: "s") == nil)
            #expect(try await store.identities.identities(userID: ada.id).isEmpty)
            let removedAgain = try await store.identities.unlink(provider: "apple", subject: "s", userID: ada.id)
            let unknown = try await store.identities.unlink(provider: "nobody", subject: "x", userID: ada.id)
            #expect(!removedAgain && !unknown)
            #expect(try await store.users.find(byID: ada.id) == ada)
        }
    }

    @Test(
        "unlink for one user leaves the same identity linked to another user (unlinked and re-linked meanwhile)",
        arguments: Backend.allCases)
    func unlinkOtherUser(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            // The operator looked at ada's identities; meanwhile the identity was unlinked and now signs in bob.
            try await store.identities.link(
                provider: "apple", subject: "s", userID: bob.id, email: nil, now: Fixture.at(1))
            let removed = try await store.identities.unlink(provider: "apple", subject: "s", userID: ada.id)
            #expect(!removed)
            #expect(try await store.identities.user(provider: "apple", subject: "s") == bob)
            #expect(try await store.identities.unlink(provider: "apple", subject: "s", userID: bob.id))
            #expect(try await store.identities.user(provider: "apple", subject: "s") == nil)
        }
    }

    @Test("a used ID token is refused until it expires and is pruned", arguments: Backend.allCases)
    func recordUse(backend: Backend) async throws {
        try await backend.with { store in
            let hash = String(repeating: "ab", count: 32)
            let uses = store.identities
            let first = try await uses.recordUse(tokenHash: hash, expiresAt: Fixture.at(60), now: Fixture.at(0))
            let replay = try await uses.recordUse(tokenHash: hash, expiresAt: Fixture.at(60), now: Fixture.at(1))
            let lastMoment = try await uses.recordUse(tokenHash: hash, expiresAt: Fixture.at(60), now: Fixture.at(59))
            #expect(first && !replay && !lastMoment)
            // Another token is independent.
            let other = try await uses.recordUse(
                tokenHash: String(repeating: "cd", count: 32), expiresAt: Fixture.at(600), now: Fixture.at(1))
            #expect(other)
            // Kept for the 5-minute margin after its expiry, then pruned.
            #expect(try await uses.pruneUses(expiredBy: Fixture.at(60)) == 0)
            #expect(try await uses.pruneUses(expiredBy: Fixture.at(359)) == 0)
            #expect(try await uses.pruneUses(expiredBy: Fixture.at(360)) == 1)
            let again = try await uses.recordUse(tokenHash: hash, expiresAt: Fixture.at(420), now: Fixture.at(361))
            let againReplay = try await uses.recordUse(
                tokenHash: hash, expiresAt: Fixture.at(420), now: Fixture.at(362))
            #expect(again && !againReplay)
        }
    }

    @Test("a used ID token is refused after its expiry too, until it is pruned", arguments: Backend.allCases)
    func replayAfterExpiry(backend: Backend) async throws {
        try await backend.with { store in
            let uses = store.identities
            let hash = String(repeating: "a1", count: 32)
            // Within the verifier's leeway: the token's exp passed 30 s ago.
            let first = try await uses.recordUse(tokenHash: hash, expiresAt: Fixture.at(60), now: Fixture.at(90))
            let replay = try await uses.recordUse(tokenHash: hash, expiresAt: Fixture.at(60), now: Fixture.at(90))
            #expect(first && !replay)
            // A row remembered earlier is not taken over once expired either.
            let used = String(repeating: "b2", count: 32)
            let early = try await uses.recordUse(tokenHash: used, expiresAt: Fixture.at(60), now: Fixture.at(1))
            let late = try await uses.recordUse(tokenHash: used, expiresAt: Fixture.at(60), now: Fixture.at(90))
            #expect(early && !late)
        }
    }

    @Test("concurrent uses of one ID token: exactly one is accepted", arguments: Backend.allCases)
    func concurrentUse(backend: Backend) async throws {
        try await backend.with { store in
            let hash = String(repeating: "ef", count: 32)
            let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await store.identities.recordUse(
                            tokenHash: hash, expiresAt: Fixture.at(60), now: Fixture.at(1))
                    }
                }
                var accepted = 0
                for try await first in group where first { accepted += 1 }
                return accepted
            }
            #expect(accepted == 1)
        }
    }

    @Test("deleting a user deletes its identities", arguments: Backend.allCases)
    func cascade(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            try await store.identities.link(
                provider: "apple", subject: "a", userID: ada.id, email: nil, now: Fixture.at(1))
            try await store.identities.link(
                provider: "google", subject: "a", userID: ada.id, email: nil, now: Fixture.at(1))
            try await store.identities.link(
                provider: "apple", subject: "b", userID: bob.id, email: nil, now: Fixture.at(1))
            try await Fixture.deleteUser(ada.id, from: store)
            #expect(try await store.identities.identities(userID: ada.id).isEmpty)
            #expect(try await store.identities.user(provider: "apple", subject: "a") == nil)
            #expect(try await store.identities.user(provider: "apple", subject: "b") == bob)
            // The link is free again.
            try await store.identities.link(
                provider: "apple", subject: "a", userID: bob.id, email: nil, now: Fixture.at(2))
        }
    }
}
