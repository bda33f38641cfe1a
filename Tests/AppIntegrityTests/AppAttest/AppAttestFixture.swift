import AppIntegrity
import AppIntegrityTesting
import Cryptography
import Foundation

/// The suites' one fake (scripts/fake_app_attest.py, started once per test process and shared) and helpers.
enum AppAttestFixture {
    static let appID = "ABCDE12345.com.example.tokenvend"
    static let otherAppID = "ABCDE12345.com.example.other"

    private static let shared = Task { try await FakeAppAttest.start() }

    /// The shared fake.
    static func fake() async throws -> FakeAppAttest { try await shared.value }

    /// A verifier trusting the fake's root.
    static func verifier(allowDevelopment: Bool = false) async throws -> AppAttestVerifier {
        try AppAttestVerifier(
            appIDs: [appID], allowDevelopment: allowDevelopment, rootCertificatePEM: try await fake().rootPEM)
    }

    /// SHA-256 of a fresh challenge's UTF-8 bytes.
    static func clientDataHash() throws -> [UInt8] {
        try SHA256.hash(Array(Base64URL.encode(try SecureRandom.bytes(count: 32)).utf8))
    }

    /// Standard base64 decoded (the fake's answers are always valid).
    static func bytes(_ base64: String) throws -> [UInt8] {
        guard let bytes = StandardBase64.decode(base64) else { throw FixtureError.notBase64 }
        return bytes
    }

    enum FixtureError: Error { case notBase64 }
}
