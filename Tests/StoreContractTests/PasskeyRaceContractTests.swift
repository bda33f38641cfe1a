import Foundation
import Store
import StoreTesting
import Testing

/// Two instances of a deployment (PostgreSQL: two stores with their own pools; SQLite: two stores on one file)
/// racing the passkey decisions (issue 36): a challenge is consumed once, one counter value is recorded once, the
/// accounts' handle is one whatever was proposed, a credential id or an email is registered once, the challenge
/// cap holds, and two deletions of an account's last two passkeys leave one.
@Suite(.timeLimit(.minutes(1))) struct PasskeyRaceContractTests {
    /// How many tasks race in each round, alternating between the two stores.
    static let racers = 16

    /// Runs `body(store, index)` in `racers` tasks at once, alternating `first` and `second`, and returns the
    /// results in index order.
    static func race<T: Sendable>(
        _ first: any StoreBackend, _ second: any StoreBackend,
        _ body: @escaping @Sendable (any StoreBackend, Int) async throws -> T
    ) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for index in 0..<racers {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { (index, try await body(store, index)) }
            }
            var results: [(Int, T)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    @Test("two instances racing one challenge: exactly one consumes it", arguments: Backend.allCases)
    func consumeOnce(backend: Backend) async throws {
        try await backend.withTwo { (first: any StoreBackend, second: any StoreBackend) async throws in
            for round in 1...3 {
                let challenge = PasskeyChallenge(
                    hash: "race\(round)", ceremony: .registration, userID: "u", userHandle: "h",
                    expiresAt: Fixture.at(300))
                #expect(try await first.passkeys.issueChallenge(challenge, maxPending: 10, now: Fixture.epoch))
                let won = try await Self.race(first, second) { store, _ in
                    try await store.passkeys.consumeChallenge(hash: "race\(round)", now: Fixture.at(1))
                }
                #expect(won.compactMap { $0 } == [challenge], "round \(round)")
            }
        }
    }

    @Test(
        "two instances recording assertions with one counter: exactly one is recorded; both-zero ones all are",
        arguments: Backend.allCases)
    func counterOnce(backend: Backend) async throws {
        try await backend.withTwo { (first: any StoreBackend, second: any StoreBackend) async throws in
            _ = try await PasskeyContractTests.passkeyUser(first, handle: "h", credentialID: "k")
            for round: UInt32 in 1...3 {
                let won = try await Self.race(first, second) { store, index in
                    try await store.passkeys.recordAssertion(
                        credentialID: "k", signCount: round, backedUp: index.isMultiple(of: 2),
                        now: Fixture.at(Double(round)))
                }
                #expect(won.filter { $0 }.count == 1, "round \(round)")
                #expect(try await second.passkeys.passkey(credentialID: "k")?.passkey.signCount == round)
            }
            // A passkey that keeps no counter: every assertion is recorded.
            _ = try await PasskeyContractTests.passkeyUser(first, handle: "h0", credentialID: "zero")
            let zeros = try await Self.race(first, second) { store, _ in
                try await store.passkeys.recordAssertion(
                    credentialID: "zero", signCount: 0, backedUp: true, now: Fixture.at(5))
            }
            #expect(zeros.allSatisfy { $0 })
        }
    }

    @Test("two instances proposing handles for one account: all get the one stored", arguments: Backend.allCases)
    func oneHandle(backend: Backend) async throws {
        try await backend.withTwo { (first: any StoreBackend, second: any StoreBackend) async throws in
            for round in 1...3 {
                let user = try await Fixture.user(first, email: "u\(round)@example.com")
                let handles = try await Self.race(first, second) { store, index in
                    try await store.passkeys.userHandle(userID: user.id, proposing: "h\(round)-\(index)")
                }
                #expect(Set(handles).count == 1, "round \(round)")
                let handle = try #require(handles.first)
                #expect(handle.hasPrefix("h\(round)-"))
                #expect(try await second.passkeys.userHandle(userID: user.id, proposing: "later") == handle)
            }
        }
    }

    @Test(
        "two instances registering one credential id, or signing up one email, at once: exactly one succeeds",
        arguments: Backend.allCases)
    func registerOnce(backend: Backend) async throws {
        try await backend.withTwo { (first: any StoreBackend, second: any StoreBackend) async throws in
            let ada = try await Fixture.user(first)
            _ = try await first.passkeys.userHandle(userID: ada.id, proposing: "h-ada")
            let inserted = try await Self.race(first, second) { store, index in
                var passkey = PasskeyContractTests.passkey("shared", userID: ada.id)
                passkey.name = "racer \(index)"
                return try await store.passkeys.insertPasskey(passkey)
            }
            #expect(inserted.filter { $0 }.count == 1)
            let signUps = try await Self.race(first, second) { store, index in
                let user = User(
                    id: "u-\(index)", email: "new@example.com", passwordHash: nil, role: "user", tenantID: nil,
                    disabledAt: nil, createdAt: Fixture.epoch)
                do throws(StoreError) {
                    try await store.passkeys.createUser(
                        user, userHandle: "h-\(index)",
                        passkey: PasskeyContractTests.passkey("new-\(index)", userID: user.id))
                    return true
                } catch .emailTaken {
                    return false
                }
            }
            #expect(signUps.filter { $0 }.count == 1)
            #expect(try await second.passkeys.allPasskeys().count == 2)
        }
    }

    @Test("two instances issuing challenges at once never pass the cap", arguments: Backend.allCases)
    func capHolds(backend: Backend) async throws {
        try await backend.withTwo { (first: any StoreBackend, second: any StoreBackend) async throws in
            let issued = try await Self.race(first, second) { store, index in
                try await store.passkeys.issueChallenge(
                    PasskeyChallenge(hash: "cap\(index)", ceremony: .authentication, expiresAt: Fixture.at(300)),
                    maxPending: 5, now: Fixture.epoch)
            }
            #expect(issued.filter { $0 }.count == 5)
            #expect(try await first.passkeys.pruneChallenges(expiredBy: Fixture.at(300)) == 5)
        }
    }

    @Test(
        "two instances deleting an account's last two passkeys at once: one is deleted, the other kept",
        arguments: Backend.allCases)
    func lastMethodHolds(backend: Backend) async throws {
        try await backend.withTwo { (first: any StoreBackend, second: any StoreBackend) async throws in
            for round in 1...3 {
                let user = try await PasskeyContractTests.passkeyUser(
                    first, handle: "h\(round)", credentialID: "r\(round)-a")
                #expect(
                    try await first.passkeys.insertPasskey(
                        PasskeyContractTests.passkey("r\(round)-b", userID: user.id, at: 2)))
                let outcomes = try await Self.race(first, second) { store, index in
                    try await store.passkeys.deletePasskey(
                        credentialID: index.isMultiple(of: 2) ? "r\(round)-a" : "r\(round)-b", userID: user.id,
                        emailSignIn: true)
                }
                #expect(outcomes.filter { $0 == .deleted }.count == 1, "round \(round)")
                #expect(try await second.passkeys.passkeys(userID: user.id).count == 1)
            }
        }
    }
}
