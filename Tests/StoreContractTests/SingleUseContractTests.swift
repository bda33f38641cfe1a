import Foundation
import Store
import StoreTesting
import Testing

/// The two tables of single-use, expiring hashes: the server-issued nonces of `IdentityStoring`
/// (`POST /auth/nonce`) and the challenges of `IntegrityStoring` (`POST /integrity/challenge`).
enum SingleUse: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case nonces, challenges

    var testDescription: String { rawValue }

    func issue(
        _ store: any StoreBackend, _ hash: String, expiresAt: Date, maxPending: Int, now: Date
    ) async throws -> Bool {
        switch self {
        case .nonces:
            try await store.identities.issueNonce(hash: hash, expiresAt: expiresAt, maxPending: maxPending, now: now)
        case .challenges:
            try await store.integrity.issueChallenge(
                hash: hash, expiresAt: expiresAt, maxPending: maxPending, now: now)
        }
    }

    func consume(_ store: any StoreBackend, _ hash: String, now: Date) async throws -> Bool {
        switch self {
        case .nonces: try await store.identities.consumeNonce(hash: hash, now: now)
        case .challenges: try await store.integrity.consumeChallenge(hash: hash, now: now)
        }
    }

    func prune(_ store: any StoreBackend, expiredBy now: Date) async throws -> Int {
        switch self {
        case .nonces: try await store.identities.pruneNonces(expiredBy: now)
        case .challenges: try await store.integrity.pruneChallenges(expiredBy: now)
        }
    }
}

/// Nonces and integrity challenges give the same answers on SQLite and PostgreSQL: issued once, consumed once,
/// never after expiry, capped in all, pruned once expired.
@Suite(.timeLimit(.minutes(1))) struct SingleUseContractTests {
    @Test(
        "an issued hash is consumed once; an unknown one never; one hash is not issued twice",
        arguments: Backend.allCases, SingleUse.allCases)
    func consumeOnce(backend: Backend, kind: SingleUse) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            #expect(try await kind.issue(store, "h1", expiresAt: Fixture.at(600), maxPending: 10, now: Fixture.at(0)))
            #expect(try await !kind.issue(store, "h1", expiresAt: Fixture.at(600), maxPending: 10, now: Fixture.at(0)))
            #expect(try await kind.consume(store, "h1", now: Fixture.at(1)))
            #expect(try await !kind.consume(store, "h1", now: Fixture.at(2)))
            #expect(try await !kind.consume(store, "never", now: Fixture.at(2)))
        }
    }

    @Test(
        "an expired hash is not consumed (from its expiry's millisecond on), and the prune deletes it",
        arguments: Backend.allCases, SingleUse.allCases)
    func expiry(backend: Backend, kind: SingleUse) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            #expect(try await kind.issue(store, "old", expiresAt: Fixture.at(600), maxPending: 10, now: Fixture.at(0)))
            #expect(
                try await kind.issue(store, "new", expiresAt: Fixture.at(900), maxPending: 10, now: Fixture.at(300)))
            #expect(try await !kind.consume(store, "old", now: Fixture.at(600)))
            #expect(try await kind.prune(store, expiredBy: Fixture.at(600)) == 1)
            #expect(try await kind.prune(store, expiredBy: Fixture.at(600)) == 0)
            #expect(try await kind.consume(store, "new", now: Fixture.at(899.5)))
        }
    }

    @Test(
        "past maxPending unexpired hashes nothing is stored; consumed and expired ones free places",
        arguments: Backend.allCases, SingleUse.allCases)
    func cap(backend: Backend, kind: SingleUse) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            for index in 0..<3 {
                #expect(
                    try await kind.issue(
                        store, "h\(index)", expiresAt: Fixture.at(600 + Double(index)), maxPending: 3,
                        now: Fixture.at(0)))
            }
            #expect(try await !kind.issue(store, "h3", expiresAt: Fixture.at(600), maxPending: 3, now: Fixture.at(0)))
            #expect(try await !kind.consume(store, "h3", now: Fixture.at(1)))
            #expect(try await kind.consume(store, "h1", now: Fixture.at(1)))
            #expect(try await kind.issue(store, "h4", expiresAt: Fixture.at(700), maxPending: 3, now: Fixture.at(1)))
            #expect(try await !kind.issue(store, "h5", expiresAt: Fixture.at(700), maxPending: 3, now: Fixture.at(1)))
            // h0 expired at 600: no longer pending, even before the prune.
            #expect(
                try await kind.issue(store, "h6", expiresAt: Fixture.at(1200), maxPending: 3, now: Fixture.at(600)))
        }
    }

    @Test("concurrent issues never pass the cap", arguments: Backend.allCases, SingleUse.allCases)
    func concurrentCap(backend: Backend, kind: SingleUse) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let stored = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await kind.issue(
                            store, "c\(index)", expiresAt: Fixture.at(600), maxPending: 5, now: Fixture.at(0))
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(stored == 5)
        }
    }

    @Test(
        "concurrent consumptions of one hash: exactly one succeeds", arguments: Backend.allCases, SingleUse.allCases)
    func concurrentConsume(backend: Backend, kind: SingleUse) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            #expect(
                try await kind.issue(store, "once", expiresAt: Fixture.at(600), maxPending: 10, now: Fixture.at(0)))
            let consumed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await kind.consume(store, "once", now: Fixture.at(1)) }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(consumed == 1)
        }
    }
}
