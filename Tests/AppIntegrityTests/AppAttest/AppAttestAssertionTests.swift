import AppIntegrity
import AppIntegrityTesting
import Cryptography
import Foundation
import Testing

@Suite("App Attest assertions") struct AppAttestAssertionTests {
    typealias Fixture = AppAttestFixture

    /// An attested key: its handle and stored public point.
    private func attestedKey() async throws -> (handle: String, publicKey: [UInt8]) {
        let hash = try Fixture.clientDataHash()
        let (keyID, attestation, handle) = try await Fixture.fake().attest(appID: Fixture.appID, clientDataHash: hash)
        let verified = try await Fixture.verifier().verifyAttestation(
            keyID: keyID, attestation: try Fixture.bytes(attestation), clientDataHash: hash, now: Date())
        return (handle, verified.publicKey)
    }

    @Test("accepts an assertion by the attested key and returns its counter")
    func acceptsValid() async throws {
        let (handle, publicKey) = try await attestedKey()
        let hash = try Fixture.clientDataHash()
        let assertion = try await Fixture.fake().assert(
            handle: handle, appID: Fixture.appID, clientDataHash: hash, counter: 5)
        let counter = try await Fixture.verifier().verifyAssertion(
            try Fixture.bytes(assertion), clientDataHash: hash, publicKey: publicKey, appID: Fixture.appID,
            storedCounter: 4)
        #expect(counter == 5)
    }

    @Test("refuses an assertion by another key, or for another challenge, as a bad signature")
    func wrongKey() async throws {
        let (handle, _) = try await attestedKey()
        let (_, otherKey) = try await attestedKey()
        let hash = try Fixture.clientDataHash()
        let assertion = try Fixture.bytes(
            try await Fixture.fake().assert(handle: handle, appID: Fixture.appID, clientDataHash: hash, counter: 1))
        let verifier = try await Fixture.verifier()
        for (key, clientDataHash) in [
            (otherKey, hash), (try await attestedKey().publicKey, try Fixture.clientDataHash()),
        ] {
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verifyAssertion(
                    assertion, clientDataHash: clientDataHash, publicKey: key, appID: Fixture.appID, storedCounter: 0)
            }
            #expect(error?.reason == .signature)
        }
    }

    @Test("refuses an assertion for another app id")
    func wrongApp() async throws {
        let (handle, publicKey) = try await attestedKey()
        let hash = try Fixture.clientDataHash()
        let assertion = try await Fixture.fake().assert(
            handle: handle, appID: Fixture.otherAppID, clientDataHash: hash, counter: 1)
        let verifier = try await Fixture.verifier()
        let error = #expect(throws: IntegrityError.self) {
            try verifier.verifyAssertion(
                try Fixture.bytes(assertion), clientDataHash: hash, publicKey: publicKey, appID: Fixture.appID,
                storedCounter: 0)
        }
        #expect(error?.reason == .appID)
    }

    @Test("refuses a counter equal to or lower than the stored one (replayed or reordered)", arguments: [7, 6, 0])
    func counterMustGrow(counter: UInt32) async throws {
        let (handle, publicKey) = try await attestedKey()
        let hash = try Fixture.clientDataHash()
        let assertion = try await Fixture.fake().assert(
            handle: handle, appID: Fixture.appID, clientDataHash: hash, counter: counter)
        let verifier = try await Fixture.verifier()
        let error = #expect(throws: IntegrityError.self) {
            try verifier.verifyAssertion(
                try Fixture.bytes(assertion), clientDataHash: hash, publicKey: publicKey, appID: Fixture.appID,
                storedCounter: 7)
        }
        #expect(error?.reason == .counter)
    }

    @Test(
        "answers malformed for an assertion cut at every offset or of the wrong shape; a flipped bit is a bad signature"
    )
    func malformed() async throws {
        let (handle, publicKey) = try await attestedKey()
        let hash = try Fixture.clientDataHash()
        let assertion = try Fixture.bytes(
            try await Fixture.fake().assert(handle: handle, appID: Fixture.appID, clientDataHash: hash, counter: 1))
        let verifier = try await Fixture.verifier()
        let shapes: [[UInt8]] = [
            [0xA0], [0x80], [0xF6], assertion + [0x00], assertion + [UInt8](repeating: 0, count: 4096),
        ]
        for bytes in (0..<assertion.count).map({ Array(assertion.prefix($0)) }) + shapes {
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verifyAssertion(
                    bytes, clientDataHash: hash, publicKey: publicKey, appID: Fixture.appID, storedCounter: 0)
            }
            #expect(error?.reason == .malformed, "\(bytes.count) bytes")
        }
        // The signature is the first member's value: flip a bit inside it (after the map and key headers).
        var flipped = assertion
        flipped[16] ^= 0x01
        let error = #expect(throws: IntegrityError.self) {
            try verifier.verifyAssertion(
                flipped, clientDataHash: hash, publicKey: publicKey, appID: Fixture.appID, storedCounter: 0)
        }
        #expect(error?.reason == .signature)
    }
}
