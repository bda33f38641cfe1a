import Foundation
import Store
import StoreTesting
import Testing

/// The app-integrity state of `IntegrityStoring` (issue 34) gives the same answers on SQLite and PostgreSQL: App
/// Attest keys stored once, read back field by field, their counter advanced only upward, in one statement; two
/// instances racing one advance and one challenge consumption each get one winner. (The challenges' single use,
/// expiry, cap and prune are `SingleUseContractTests`, with the nonces: one table kind, one behaviour.)
@Suite(.timeLimit(.minutes(1))) struct IntegrityContractTests {
    /// A key as the exchange stores it right after attestation (counter 0, never asserted).
    static func key(_ id: String = "a2V5LWlk", appID: String = "ABCDE12345.com.example.app") -> AttestedKey {
        AttestedKey(
            keyID: id, publicKey: [0x04] + (1...64).map { UInt8($0) }, counter: 0, appID: appID,
            environment: .production, createdAt: Fixture.at(1))
    }

    @Test("a key round-trips every field; a second insert of its id changes nothing", arguments: Backend.allCases)
    func keyRoundTrip(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let keys = store.integrity
            let key = Self.key()
            #expect(try await keys.attestedKey(id: key.keyID) == nil)
            #expect(try await keys.insertAttestedKey(key))
            #expect(try await keys.attestedKey(id: key.keyID) == key)
            var other = Self.key(appID: "ZYXWV98765.org.example.other")
            other.publicKey = [0x04] + [UInt8](repeating: 0xFF, count: 64)
            other.environment = .development
            other.counter = 7
            #expect(try await !keys.insertAttestedKey(other))
            #expect(try await keys.attestedKey(id: key.keyID) == key)
            // Every field of a development key asserted before, at the extremes of its ranges.
            let asserted = AttestedKey(
                keyID: "dev+/=", publicKey: [0x04] + [UInt8](repeating: 0, count: 64), counter: .max,
                appID: "ZYXWV98765.org.example.other", environment: .development, createdAt: Fixture.at(2.5),
                lastAssertedAt: Fixture.at(3.25))
            #expect(try await keys.insertAttestedKey(asserted))
            #expect(try await keys.attestedKey(id: "dev+/=") == asserted)
            #expect(try await keys.attestedKeys() == [key, asserted])
            // Ids are compared exactly, byte by byte.
            #expect(try await keys.attestedKey(id: "DEV+/=") == nil)
        }
    }

    @Test("a public key that is not 65 bytes is refused by the table", arguments: Backend.allCases)
    func publicKeyLength(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            var key = Self.key()
            key.publicKey.removeLast()
            await #expect(throws: StoreError.constraint(.check)) { try await store.integrity.insertAttestedKey(key) }
            #expect(try await store.integrity.attestedKeys().isEmpty)
        }
    }

    @Test(
        "the counter advances only to a greater value, setting the assertion time; unknown keys are false",
        arguments: Backend.allCases)
    func advance(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let keys = store.integrity
            let key = Self.key()
            #expect(try await keys.insertAttestedKey(key))
            #expect(try await keys.advanceCounter(keyID: key.keyID, to: 5, now: Fixture.at(10)))
            var expected = key
            expected.counter = 5
            expected.lastAssertedAt = Fixture.at(10)
            #expect(try await keys.attestedKey(id: key.keyID) == expected)
            // Equal (a replay) and lower (out of order): refused, nothing changed.
            #expect(try await !keys.advanceCounter(keyID: key.keyID, to: 5, now: Fixture.at(11)))
            #expect(try await !keys.advanceCounter(keyID: key.keyID, to: 4, now: Fixture.at(12)))
            #expect(try await !keys.advanceCounter(keyID: key.keyID, to: 0, now: Fixture.at(12)))
            #expect(try await keys.attestedKey(id: key.keyID) == expected)
            #expect(try await !keys.advanceCounter(keyID: "unknown", to: 1, now: Fixture.at(13)))
            // The whole unsigned 32-bit range.
            #expect(try await keys.advanceCounter(keyID: key.keyID, to: .max, now: Fixture.at(14)))
            #expect(try await !keys.advanceCounter(keyID: key.keyID, to: .max, now: Fixture.at(15)))
            #expect(try await keys.attestedKey(id: key.keyID)?.counter == .max)
        }
    }

    @Test("a deleted key is gone; deleting an unknown one is false", arguments: Backend.allCases)
    func delete(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let keys = store.integrity
            #expect(try await keys.insertAttestedKey(Self.key("k1")))
            #expect(try await keys.insertAttestedKey(Self.key("k2")))
            #expect(try await keys.deleteAttestedKey(id: "k1"))
            #expect(try await !keys.deleteAttestedKey(id: "k1"))
            #expect(try await keys.attestedKey(id: "k1") == nil)
            #expect(try await !keys.advanceCounter(keyID: "k1", to: 1, now: Fixture.at(2)))
            #expect(try await keys.attestedKeys().map(\.keyID) == ["k2"])
        }
    }

    @Test(
        "two instances racing one counter advance and one challenge consumption: exactly one wins each",
        arguments: Backend.allCases)
    func twoInstancesRace(backend: Backend) async throws {
        try await backend.withTwo { (first: any StoreBackend, second: any StoreBackend) async throws in
            #expect(try await first.integrity.insertAttestedKey(Self.key()))
            for round in 1...3 {
                #expect(
                    try await second.integrity.issueChallenge(
                        hash: "race\(round)", expiresAt: Fixture.at(300), maxPending: 10, now: Fixture.at(0)))
                // Half the tasks advance the counter to `round`, half consume the challenge, alternating stores.
                let wins = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
                    for index in 0..<16 {
                        let store = index.isMultiple(of: 2) ? first : second
                        group.addTask {
                            guard index < 8 else {
                                return (
                                    "consume",
                                    try await store.integrity.consumeChallenge(
                                        hash: "race\(round)", now: Fixture.at(1))
                                )
                            }
                            return (
                                "advance",
                                try await store.integrity.advanceCounter(
                                    keyID: Self.key().keyID, to: UInt32(round), now: Fixture.at(Double(round)))
                            )
                        }
                    }
                    var wins: [String: Int] = [:]
                    for try await (kind, won) in group where won { wins[kind, default: 0] += 1 }
                    return wins
                }
                #expect(wins == ["advance": 1, "consume": 1], "round \(round)")
                #expect(try await second.integrity.attestedKey(id: Self.key().keyID)?.counter == UInt32(round))
            }
        }
    }
}
