import Foundation
import Store
import StoreTesting
import Testing

/// The server-issued nonces of `IdentityStoring` (`POST /auth/nonce`) give the same answers on SQLite and
/// PostgreSQL: consumed once, never after expiry, capped in all, pruned once expired.
@Suite(.timeLimit(.minutes(1))) struct NonceContractTests {
    @Test("an issued nonce is consumed once; an unknown one never", arguments: Backend.allCases)
    func consumeOnce(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let nonces = store.identities
            #expect(
                try await nonces.issueNonce(hash: "h1", expiresAt: Fixture.at(600), maxPending: 10, now: Fixture.at(0)))
            #expect(try await nonces.consumeNonce(hash: "h1", now: Fixture.at(1)))
            #expect(try await !nonces.consumeNonce(hash: "h1", now: Fixture.at(2)))
            #expect(try await !nonces.consumeNonce(hash: "never", now: Fixture.at(2)))
        }
    }

    @Test("an expired nonce is not consumed, and the prune deletes it", arguments: Backend.allCases)
    func expiry(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let nonces = store.identities
            #expect(
                try await nonces.issueNonce(hash: "old", expiresAt: Fixture.at(600), maxPending: 10, now: Fixture.at(0))
            )
            #expect(
                try await nonces.issueNonce(
                    hash: "new", expiresAt: Fixture.at(900), maxPending: 10, now: Fixture.at(300)))
            #expect(try await !nonces.consumeNonce(hash: "old", now: Fixture.at(600)))
            #expect(try await nonces.pruneNonces(expiredBy: Fixture.at(600)) == 1)
            #expect(try await nonces.pruneNonces(expiredBy: Fixture.at(600)) == 0)
            #expect(try await nonces.consumeNonce(hash: "new", now: Fixture.at(600)))
        }
    }

    @Test(
        "past maxPending unexpired nonces nothing is stored; consumed and expired ones free places",
        arguments: Backend.allCases)
    func cap(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let nonces = store.identities
            for index in 0..<3 {
                #expect(
                    try await nonces.issueNonce(
                        hash: "h\(index)", expiresAt: Fixture.at(600 + Double(index)), maxPending: 3, now: Fixture.at(0)
                    ))
            }
            #expect(
                try await !nonces.issueNonce(hash: "h3", expiresAt: Fixture.at(600), maxPending: 3, now: Fixture.at(0)))
            #expect(try await !nonces.consumeNonce(hash: "h3", now: Fixture.at(1)))
            #expect(try await nonces.consumeNonce(hash: "h1", now: Fixture.at(1)))
            #expect(
                try await nonces.issueNonce(hash: "h4", expiresAt: Fixture.at(700), maxPending: 3, now: Fixture.at(1)))
            #expect(
                try await !nonces.issueNonce(hash: "h5", expiresAt: Fixture.at(700), maxPending: 3, now: Fixture.at(1)))
            // h0 expired at 600: no longer pending, even before the prune.
            #expect(
                try await nonces.issueNonce(
                    hash: "h6", expiresAt: Fixture.at(1200), maxPending: 3, now: Fixture.at(600)))
        }
    }

    @Test("concurrent issues never pass the cap", arguments: Backend.allCases)
    func concurrentCap(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let nonces = store.identities
            let stored = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await nonces.issueNonce(
                            hash: "c\(index)", expiresAt: Fixture.at(600), maxPending: 5, now: Fixture.at(0))
                    }
                }
                var count = 0
                for try await accepted in group where accepted { count += 1 }
                return count
            }
            #expect(stored == 5)
        }
    }

    @Test("concurrent consumptions of one nonce: exactly one succeeds", arguments: Backend.allCases)
    func concurrentConsume(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let nonces = store.identities
            #expect(
                try await nonces.issueNonce(
                    hash: "once", expiresAt: Fixture.at(600), maxPending: 10, now: Fixture.at(0)))
            let consumed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await nonces.consumeNonce(hash: "once", now: Fixture.at(1)) }
                }
                var count = 0
                for try await accepted in group where accepted { count += 1 }
                return count
            }
            #expect(consumed == 1)
        }
    }
}
