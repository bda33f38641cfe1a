import AppIntegrity
import AppIntegrityTesting
import Cryptography
import Foundation

/// The Play Integrity and App Check suites' one fake (scripts/fake_play_integrity.py, started once per test process
/// and shared) and helpers.
enum PlayIntegrityFixture {
    static let packageName = "com.example.tokenvend"

    private static let shared = Task { try await FakePlayIntegrity.start() }

    /// The shared fake.
    static func fake() async throws -> FakePlayIntegrity { try await shared.value }

    /// Settings with the fake's keys for ``packageName``; `certificateDigests` as given.
    static func settings(certificateDigests: [[UInt8]]? = nil) async throws -> PlayIntegritySettings {
        let fake = try await fake()
        let keys = fake.keys()
        let digest = try bytes(Base64URL.decode(fake.defaultCertificateDigest))
        return PlayIntegritySettings(
            decryptionKey: try bytes(StandardBase64.decode(keys.decryption)),
            verificationKey: try bytes(StandardBase64.decode(keys.verification)), packageNames: [packageName],
            certificateDigests: certificateDigests ?? [digest])
    }

    /// A verifier with ``settings(certificateDigests:)``.
    static func verifier(certificateDigests: [[UInt8]]? = nil) async throws -> PlayIntegrityVerifier {
        try PlayIntegrityVerifier(settings: try await settings(certificateDigests: certificateDigests))
    }

    /// A fresh challenge, as `/integrity/challenge` makes one.
    static func challenge() throws -> String {
        Base64URL.encode(try SecureRandom.bytes(count: 32))
    }

    static func bytes(_ decoded: [UInt8]?) throws -> [UInt8] {
        guard let decoded else { throw FixtureError.notBase64 }
        return decoded
    }

    enum FixtureError: Error { case notBase64 }
}
