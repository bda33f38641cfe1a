import Foundation
import Store
import StoreTesting
import Testing

/// `OAuthFlowStoring` gives the same answers on SQLite and PostgreSQL: flows and codes are single use.
@Suite(.timeLimit(.minutes(1))) struct OAuthFlowContractTests {
    static func flow(_ stateHash: String = "f1", expiresAt seconds: Double = 300) -> OAuthFlow {
        OAuthFlow(
            stateHash: stateHash, provider: "google", redirectURI: "com.example.app:/oauth",
            codeChallenge: "C" + stateHash,
            appState: "app-state", nonce: "n-" + stateHash, codeVerifier: "v-" + stateHash, createdAt: Fixture.at(0),
            expiresAt: Fixture.at(seconds))
    }

    static func code(
        _ codeHash: String = "c1", userID: String, created: Bool = true, expiresAt seconds: Double = 60
    ) -> AuthorizationCode {
        AuthorizationCode(
            codeHash: codeHash, userID: userID, provider: "github", redirectURI: "http://127.0.0.1:4711/cb",
            codeChallenge: "challenge-" + codeHash, created: created, createdAt: Fixture.at(0),
            expiresAt: Fixture.at(seconds))
    }

    @Test("a flow is taken once: the second take is nil", arguments: Backend.allCases)
    func flowTakenOnce(backend: Backend) async throws {
        try await backend.with { store in
            let flow = Self.flow()
            try await store.oauth.saveFlow(flow)
            try await store.oauth.saveFlow(Self.flow("f2"))
            #expect(try await store.oauth.takeFlow(stateHash: "f1", now: Fixture.at(10)) == flow)
            #expect(try await store.oauth.takeFlow(stateHash: "f1", now: Fixture.at(10)) == nil)
            #expect(try await store.oauth.takeFlow(stateHash: "nope", now: Fixture.at(10)) == nil)
            // The other flow is untouched.
            #expect(try await store.oauth.takeFlow(stateHash: "f2", now: Fixture.at(11)) == Self.flow("f2"))
        }
    }

    @Test(
        "a capped save stores nothing once maxLive flows are live; expired and taken flows free places",
        arguments: Backend.allCases)
    func flowCap(backend: Backend) async throws {
        try await backend.with { store in
            let oauth = store.oauth
            var saved: [Bool] = []
            saved.append(try await oauth.saveFlow(Self.flow("a"), maxLive: 2))
            saved.append(try await oauth.saveFlow(Self.flow("b", expiresAt: 5), maxLive: 2))
            saved.append(try await oauth.saveFlow(Self.flow("c"), maxLive: 2))
            #expect(saved == [true, true, false])
            #expect(try await oauth.takeFlow(stateHash: "c", now: Fixture.at(1)) == nil)
            // A higher cap admits it.
            let third = try await oauth.saveFlow(Self.flow("c"), maxLive: 3)
            #expect(third)
            // A flow that expired by the new flow's start no longer counts, whether or not it was pruned.
            var later = Self.flow("d", expiresAt: 300)
            later.createdAt = Fixture.at(10)
            let afterExpiry = try await oauth.saveFlow(later, maxLive: 3)
            #expect(afterExpiry)
            // Taking a flow frees its place.
            #expect(try await oauth.takeFlow(stateHash: "a", now: Fixture.at(11)) != nil)
            var last = Self.flow("e", expiresAt: 300)
            last.createdAt = Fixture.at(12)
            let afterTake = try await oauth.saveFlow(last, maxLive: 3)
            let full = try await oauth.saveFlow(Self.flow("f"), maxLive: 3)
            #expect(afterTake)
            #expect(!full)
        }
    }

    @Test("saving a flow under a stored state hash is a primary-key conflict", arguments: Backend.allCases)
    func flowDuplicate(backend: Backend) async throws {
        try await backend.with { store in
            try await store.oauth.saveFlow(Self.flow())
            await #expect(throws: StoreError.constraint(.primaryKey)) {
                try await store.oauth.saveFlow(Self.flow())
            }
        }
    }

    @Test("an expired flow is nil and gone: taking it again later is nil too", arguments: Backend.allCases)
    func expiredFlow(backend: Backend) async throws {
        try await backend.with { store in
            try await store.oauth.saveFlow(Self.flow(expiresAt: 300))
            // At its expiry it is refused already...
            #expect(try await store.oauth.takeFlow(stateHash: "f1", now: Fixture.at(300)) == nil)
            // ...and deleted: even a clock that went back finds nothing.
            #expect(try await store.oauth.takeFlow(stateHash: "f1", now: Fixture.at(10)) == nil)
            #expect(try await store.oauth.pruneFlows(now: Fixture.at(10_000)) == 0)
        }
    }

    @Test(
        "a code redeems once; the second presentation is replayed with the attached session id",
        arguments: Backend.allCases)
    func codeRedeemsOnce(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let code = Self.code(userID: ada.id, created: true)
            try await store.oauth.saveCode(code)
            try await store.oauth.saveCode(Self.code("c2", userID: ada.id, created: false))
            #expect(try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(5)) == .redeemed(code))
            #expect(try await store.oauth.attachSession(codeHash: "c1", sessionID: "s-1"))
            #expect(
                try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(6))
                    == .replayed(userID: ada.id, sessionID: "s-1"))
            // Again and again: still replayed, still the session.
            #expect(
                try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(7))
                    == .replayed(userID: ada.id, sessionID: "s-1"))
            // A session is attached once, and never to a replayed code.
            #expect(try await !store.oauth.attachSession(codeHash: "c1", sessionID: "s-2"))
            // `created` comes back as stored, both ways.
            #expect(
                try await store.oauth.redeemCode(codeHash: "c2", now: Fixture.at(5))
                    == .redeemed(Self.code("c2", userID: ada.id, created: false)))
            #expect(try await store.oauth.redeemCode(codeHash: "never", now: Fixture.at(5)) == .unknown)
        }
    }

    @Test("a replay after the code expired is still replayed with the session id", arguments: Backend.allCases)
    func replayAfterExpiry(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            try await store.oauth.saveCode(Self.code(userID: ada.id, expiresAt: 60))
            #expect(
                try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(59))
                    == .redeemed(Self.code(userID: ada.id)))
            #expect(try await store.oauth.attachSession(codeHash: "c1", sessionID: "s-9"))
            #expect(
                try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(600))
                    == .replayed(userID: ada.id, sessionID: "s-9"))
        }
    }

    @Test(
        "a replay between redeem and attach makes attachSession false; the replay has no session",
        arguments: Backend.allCases)
    func replayBeforeAttach(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            try await store.oauth.saveCode(Self.code(userID: ada.id))
            guard case .redeemed = try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(1)) else {
                Issue.record("not redeemed")
                return
            }
            #expect(
                try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(2))
                    == .replayed(userID: ada.id, sessionID: nil))
            #expect(try await !store.oauth.attachSession(codeHash: "c1", sessionID: "s-1"))
            // Nothing was recorded: a later replay still knows no session.
            #expect(
                try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(3))
                    == .replayed(userID: ada.id, sessionID: nil))
            // attachSession on an unused or unknown code records nothing either.
            try await store.oauth.saveCode(Self.code("c2", userID: ada.id))
            #expect(try await !store.oauth.attachSession(codeHash: "c2", sessionID: "s-2"))
            #expect(try await !store.oauth.attachSession(codeHash: "none", sessionID: "s-2"))
            #expect(
                try await store.oauth.redeemCode(codeHash: "c2", now: Fixture.at(4))
                    == .redeemed(Self.code("c2", userID: ada.id)))
        }
    }

    @Test("an expired unused code is unknown, and stays unknown", arguments: Backend.allCases)
    func expiredUnused(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            try await store.oauth.saveCode(Self.code(userID: ada.id, expiresAt: 60))
            #expect(try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(60)) == .unknown)
            // Deleted: a clock that went back cannot redeem it.
            #expect(try await store.oauth.redeemCode(codeHash: "c1", now: Fixture.at(1)) == .unknown)
        }
    }

    @Test(
        "50 concurrent presentations of one code: exactly one is redeemed, the others replayed",
        arguments: Backend.allCases)
    func concurrentRedeem(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            for round in 0..<3 {
                let hash = "race-\(round)"
                try await store.oauth.saveCode(Self.code(hash, userID: ada.id))
                let results = try await withThrowingTaskGroup(of: CodeRedemption.self) { group in
                    for _ in 0..<50 {
                        group.addTask { try await store.oauth.redeemCode(codeHash: hash, now: Fixture.at(1)) }
                    }
                    var results: [CodeRedemption] = []
                    for try await result in group { results.append(result) }
                    return results
                }
                #expect(results.count == 50)
                #expect(results.filter { $0 == .redeemed(Self.code(hash, userID: ada.id)) }.count == 1)
                #expect(results.filter { $0 == .replayed(userID: ada.id, sessionID: nil) }.count == 49)
            }
        }
    }

    @Test(
        "prune deletes expired flows and codes past the retention, keeping used codes for replays",
        arguments: Backend.allCases)
    func prune(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            try await store.oauth.saveFlow(Self.flow("old", expiresAt: 100))
            try await store.oauth.saveFlow(Self.flow("live", expiresAt: 10_000))
            try await store.oauth.saveCode(Self.code("used", userID: ada.id, expiresAt: 60))
            try await store.oauth.saveCode(Self.code("later", userID: ada.id, expiresAt: 200))
            _ = try await store.oauth.redeemCode(codeHash: "used", now: Fixture.at(1))
            #expect(try await store.oauth.attachSession(codeHash: "used", sessionID: "s-u"))
            // At 300: the old flow goes; the used code expired 240 s ago, within the 10 min retention: kept.
            #expect(try await store.oauth.pruneFlows(now: Fixture.at(300)) == 1)
            #expect(try await store.oauth.takeFlow(stateHash: "old", now: Fixture.at(50)) == nil)
            #expect(
                try await store.oauth.redeemCode(codeHash: "used", now: Fixture.at(300))
                    == .replayed(userID: ada.id, sessionID: "s-u"))
            // At expiry + retention the used code goes; the other code (expiring at 200) is kept until 800.
            #expect(try await store.oauth.pruneFlows(now: Fixture.at(60 + OAuthCodes.retention)) == 1)
            #expect(try await store.oauth.redeemCode(codeHash: "used", now: Fixture.at(700)) == .unknown)
            #expect(
                try await store.oauth.takeFlow(stateHash: "live", now: Fixture.at(100))
                    == Self.flow("live", expiresAt: 10_000))
            #expect(
                try await store.oauth.redeemCode(codeHash: "later", now: Fixture.at(100))
                    == .redeemed(Self.code("later", userID: ada.id, expiresAt: 200)))
            #expect(try await store.oauth.pruneFlows(now: Fixture.at(200 + OAuthCodes.retention)) == 1)
            #expect(try await store.oauth.redeemCode(codeHash: "later", now: Fixture.at(100)) == .unknown)
        }
    }

    @Test("deleting the user deletes its codes; a code for an unknown user is not found", arguments: Backend.allCases)
    func userCascade(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            try await store.oauth.saveCode(Self.code("a", userID: ada.id))
            try await store.oauth.saveCode(Self.code("b", userID: bob.id))
            await #expect(throws: StoreError.notFound) {
                try await store.oauth.saveCode(Self.code("ghost", userID: "missing"))
            }
            await #expect(throws: StoreError.constraint(.primaryKey)) {
                try await store.oauth.saveCode(Self.code("a", userID: bob.id))
            }
            try await Fixture.deleteUser(ada.id, from: store)
            #expect(try await store.oauth.redeemCode(codeHash: "a", now: Fixture.at(1)) == .unknown)
            #expect(
                try await store.oauth.redeemCode(codeHash: "b", now: Fixture.at(1))
                    == .redeemed(Self.code("b", userID: bob.id)))
        }
    }
}
