import AppIntegrity
import AppIntegrityTesting
import Cryptography
import Foundation
import Testing

@Suite("App Attest attestations") struct AppAttestAttestationTests {
    typealias Fixture = AppAttestFixture

    @Test("accepts a valid attestation and returns the leaf's key, the app and the environment")
    func acceptsValid() async throws {
        let fake = try await Fixture.fake()
        let hash = try Fixture.clientDataHash()
        let (keyID, attestation, _) = try await fake.attest(appID: Fixture.appID, clientDataHash: hash)
        let verified = try await Fixture.verifier().verifyAttestation(
            keyID: keyID, attestation: try Fixture.bytes(attestation), clientDataHash: hash, now: Date())
        #expect(verified.publicKey.count == 65 && verified.publicKey.first == 0x04)
        #expect(try SHA256.hash(verified.publicKey) == (try Fixture.bytes(keyID)))
        #expect(verified.appID == Fixture.appID)
        #expect(!verified.isDevelopment)
        #expect(verified.counter == 0)
    }

    @Test(
        "refuses an attestation that fails exactly one check, for that check's reason",
        arguments: [
            (FakeAppAttest.Tamper.nonce, IntegrityFailureReason.nonce), (.keyID, .keyID), (.counter, .counter),
            (.aaguid, .aaguid), (.fmt, .format), (.otherRoot, .certificate), (.expired, .expired),
        ])
    func refusesTampered(tamper: FakeAppAttest.Tamper, reason: IntegrityFailureReason) async throws {
        let fake = try await Fixture.fake()
        let hash = try Fixture.clientDataHash()
        let (keyID, attestation, _) = try await fake.attest(appID: Fixture.appID, clientDataHash: hash, tamper: tamper)
        let verifier = try await Fixture.verifier()
        let error = #expect(throws: IntegrityError.self) {
            try verifier.verifyAttestation(
                keyID: keyID, attestation: try Fixture.bytes(attestation), clientDataHash: hash, now: Date())
        }
        #expect(error?.reason == reason, "\(String(describing: error))")
    }

    @Test("refuses an attestation made for another challenge (wrong nonce)")
    func refusesOtherChallenge() async throws {
        let (keyID, attestation, _) = try await Fixture.fake().attest(
            appID: Fixture.appID, clientDataHash: try Fixture.clientDataHash())
        let verifier = try await Fixture.verifier()
        #expect(
            throws: IntegrityError.failed(.nonce, detail: "the leaf's nonce is not SHA256(authData ‖ clientDataHash)")
        ) {
            try verifier.verifyAttestation(
                keyID: keyID, attestation: try Fixture.bytes(attestation), clientDataHash: try Fixture.clientDataHash(),
                now: Date())
        }
    }

    @Test("refuses an attestation for an app id that is not configured")
    func refusesOtherApp() async throws {
        let hash = try Fixture.clientDataHash()
        let (keyID, attestation, _) = try await Fixture.fake().attest(appID: Fixture.otherAppID, clientDataHash: hash)
        let verifier = try await Fixture.verifier()
        let error = #expect(throws: IntegrityError.self) {
            try verifier.verifyAttestation(
                keyID: keyID, attestation: try Fixture.bytes(attestation), clientDataHash: hash, now: Date())
        }
        #expect(error?.reason == .appID)
    }

    @Test("refuses the development AAGUID unless development is allowed, then marks the key as development")
    func developmentAAGUID() async throws {
        let hash = try Fixture.clientDataHash()
        let (keyID, attestation, _) = try await Fixture.fake().attest(
            appID: Fixture.appID, clientDataHash: hash, development: true)
        let bytes = try Fixture.bytes(attestation)
        let strict = try await Fixture.verifier()
        let error = #expect(throws: IntegrityError.self) {
            try strict.verifyAttestation(keyID: keyID, attestation: bytes, clientDataHash: hash, now: Date())
        }
        #expect(error?.reason == .development)
        let verified = try await Fixture.verifier(allowDevelopment: true).verifyAttestation(
            keyID: keyID, attestation: bytes, clientDataHash: hash, now: Date())
        #expect(verified.isDevelopment)
    }

    @Test("checks the certificates at the moment given: expired after the leaf's notAfter, not valid before it began")
    func certificatesAtNow() async throws {
        let hash = try Fixture.clientDataHash()
        let (keyID, attestation, _) = try await Fixture.fake().attest(appID: Fixture.appID, clientDataHash: hash)
        let verifier = try await Fixture.verifier()
        for now in [Date().addingTimeInterval(4 * 86_400), Date().addingTimeInterval(-2 * 86_400)] {
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verifyAttestation(
                    keyID: keyID, attestation: try Fixture.bytes(attestation), clientDataHash: hash, now: now)
            }
            #expect(error?.reason == .expired)
        }
    }

    @Test("refuses the built-in Apple root's verifier for the fake's chain (no other root is trusted)")
    func builtInRootRefusesFake() async throws {
        let hash = try Fixture.clientDataHash()
        let (keyID, attestation, _) = try await Fixture.fake().attest(appID: Fixture.appID, clientDataHash: hash)
        let verifier = try AppAttestVerifier(appIDs: [Fixture.appID], allowDevelopment: false)
        let error = #expect(throws: IntegrityError.self) {
            try verifier.verifyAttestation(
                keyID: keyID, attestation: try Fixture.bytes(attestation), clientDataHash: hash, now: Date())
        }
        #expect(error?.reason == .certificate)
    }

    @Test("answers malformed for an attestation cut at every offset, and for a bad key id or clientDataHash")
    func malformed() async throws {
        let hash = try Fixture.clientDataHash()
        let (keyID, attestation, _) = try await Fixture.fake().attest(appID: Fixture.appID, clientDataHash: hash)
        let bytes = try Fixture.bytes(attestation)
        let verifier = try await Fixture.verifier()
        for count in 0..<bytes.count {
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verifyAttestation(
                    keyID: keyID, attestation: Array(bytes.prefix(count)), clientDataHash: hash, now: Date())
            }
            #expect(error?.reason == .malformed, "cut at \(count)")
        }
        for badKeyID in [
            "", "not base64!", String(keyID.dropLast()), keyID + "AAAA", Base64URL.encode(Array(bytes.prefix(32))),
        ] {
            let error = #expect(throws: IntegrityError.self) {
                try verifier.verifyAttestation(keyID: badKeyID, attestation: bytes, clientDataHash: hash, now: Date())
            }
            #expect(error?.reason == .malformed, "\(badKeyID)")
        }
        #expect(throws: IntegrityError.self) {
            try verifier.verifyAttestation(keyID: keyID, attestation: bytes, clientDataHash: [1, 2], now: Date())
        }
        #expect(throws: IntegrityError.self) {
            try verifier.verifyAttestation(
                keyID: keyID, attestation: bytes + [UInt8](repeating: 0, count: 16 * 1024), clientDataHash: hash,
                now: Date())
        }
    }

    @Test(
        "answers malformed for CBOR of the wrong shape",
        arguments: [
            [0x80],  // []
            [0xA0],  // {}
            [0xA1, 0x63, 0x66, 0x6D, 0x74, 0x01],  // {"fmt": 1}
            [0x5F, 0xFF],  // an indefinite byte string
            [0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // an array claiming 2^64 - 1 items
            Array(repeating: 0x81, count: 40) + [0x00],  // 40 nested arrays
        ] as [[UInt8]])
    func wrongShape(bytes: [UInt8]) async throws {
        let verifier = try await Fixture.verifier()
        let keyID = Data(repeating: 7, count: 32).base64EncodedString()
        let error = #expect(throws: IntegrityError.self) {
            try verifier.verifyAttestation(
                keyID: keyID, attestation: bytes, clientDataHash: try Fixture.clientDataHash(), now: Date())
        }
        #expect(error?.reason == .malformed)
    }

    @Test("refuses app ids that are not TEAMID.bundle.id, and a root that is not one certificate")
    func configuration() {
        for appIDs in [[], ["com.example.app"], ["ABCDE1234.com.example"], ["abcde12345.com.example"], ["ABCDE12345."]]
        {
            #expect(throws: IntegrityConfigurationError.self) {
                try AppAttestVerifier(appIDs: appIDs, allowDevelopment: false)
            }
        }
        let error = #expect(throws: IntegrityConfigurationError.self) {
            try AppAttestVerifier(appIDs: [Fixture.appID], allowDevelopment: false, rootCertificatePEM: "not a PEM")
        }
        #expect(error?.path == "integrity.apple.rootCertificateFile")
    }
}
