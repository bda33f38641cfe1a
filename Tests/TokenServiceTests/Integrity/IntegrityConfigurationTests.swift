import AppIntegrity
import Foundation
import Testing

@testable import TokenService

/// The `integrity` section (issue 34): defaults, every key read from the environment, and each refusal naming
/// its key.
@Suite struct IntegrityConfigurationTests {
    static let hash = String(repeating: "ab", count: 32)
    /// A P-256 SubjectPublicKeyInfo, base64 as the Play Console shows its verification key (a throw-away key).
    static let verificationKey =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEapwGUsANWsStx2ELI9JXgW1e2pSmA/Tju+aq68W/o+6wnV29uth/v6JXo1JRiJDFXrUWZFY3QBTprVqrBxz99A=="
    static let digestHex = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")

    func key(_ fixture: ConfigurationFixture, _ environment: [String: String]) -> String? {
        guard case .invalidValue(let key, _, _)? = fixture.error(environment: environment) else { return nil }
        return key
    }

    @Test("with no integrity keys every route is off and no platform is configured")
    func defaults() throws {
        let integrity = try ConfigurationFixture().resolve().integrity
        #expect(integrity == IntegrityConfiguration())
        #expect(IntegrityRoute.allCases.allSatisfy { integrity.mode(for: $0) == .off })
        #expect(integrity.tokenLifetimeSeconds == 3600 && integrity.maxPendingChallenges == 10_000)
    }

    @Test("every key is read from its TOKENVEND_INTEGRITY_ variable")
    func everyKey() throws {
        let fixture = try ConfigurationFixture()
        let decryption = try fixture.write("decryption.key", Data(repeating: 7, count: 32).base64EncodedString())
        let verification = try fixture.write("verification.key", Self.verificationKey)
        let configuration = try fixture.resolve(environment: [
            "TOKENVEND_INTEGRITY_TOKEN_LIFETIME_SECONDS": "600",
            "TOKENVEND_INTEGRITY_MAX_PENDING_CHALLENGES": "50",
            "TOKENVEND_INTEGRITY_ROUTES_VEND": "require", "TOKENVEND_INTEGRITY_ROUTES_LOGIN": "report",
            "TOKENVEND_INTEGRITY_FIREBASE_PROJECT_NUMBER": "1234567890",
            "TOKENVEND_INTEGRITY_FIREBASE_APP_IDS": #"["1:1234567890:ios:abc"]"#,
            "TOKENVEND_INTEGRITY_FIREBASE_JWKS_URL": "http://127.0.0.1:9/jwks",
            "TOKENVEND_INTEGRITY_DEBUG_TOKENS": #"["\#(Self.hash)"]"#,
            "TOKENVEND_INTEGRITY_ALLOW_DEBUG_TOKENS": "true",
            "TOKENVEND_INTEGRITY_ANDROID_DECRYPTION_KEY_FILE": decryption,
            "TOKENVEND_INTEGRITY_ANDROID_VERIFICATION_KEY_FILE": verification,
            "TOKENVEND_INTEGRITY_ANDROID_PACKAGE_NAMES": #"["com.example.app"]"#,
            "TOKENVEND_INTEGRITY_ANDROID_CERTIFICATE_DIGESTS":
                #"["\#(Self.digestHex)", "\#(Data(repeating: 9, count: 32).base64EncodedString().replacingOccurrences(of: "=", with: ""))"]"#,
            "TOKENVEND_INTEGRITY_ANDROID_REQUIRED_DEVICE_VERDICTS": #"["MEETS_STRONG_INTEGRITY"]"#,
        ])
        let integrity = configuration.integrity
        #expect(integrity.tokenLifetimeSeconds == 600 && integrity.maxPendingChallenges == 50)
        #expect(integrity.mode(for: .vend) == .require && integrity.mode(for: .login) == .report)
        #expect(integrity.mode(for: .refresh) == .off)
        #expect(integrity.firebase?.projectNumber == "1234567890")
        #expect(integrity.firebase?.jwksURL == "http://127.0.0.1:9/jwks")
        #expect(integrity.debugTokenHashes.count == 1 && integrity.allowDebugTokens)
        let android = try #require(integrity.android)
        #expect(android.decryptionKey == Array(repeating: 7, count: 32))
        #expect(android.packageNames == ["com.example.app"])
        #expect(android.certificateDigests == [Array(0..<32), Array(repeating: 9, count: 32)])
        #expect(android.requiredDeviceVerdicts == ["MEETS_STRONG_INTEGRITY"])
        #expect(android.appRecognitionVerdicts == ["PLAY_RECOGNIZED"])
        // The keys never reach a log line.
        #expect(!"\(configuration)".contains(Data(repeating: 7, count: 32).base64EncodedString()))
    }

    @Test("each bad value refuses startup naming its key")
    func refusals() throws {
        let fixture = try ConfigurationFixture()
        let cases: [([String: String], String)] = [
            (["TOKENVEND_INTEGRITY_ROUTES_VEND": "always"], "integrity.routes.vend"),
            (["TOKENVEND_INTEGRITY_APPLE_APP_IDS": #"["com.example.app"]"#], "integrity.apple.appIds[0]"),
            (["TOKENVEND_INTEGRITY_APPLE_ALLOW_DEVELOPMENT": "true"], "integrity.apple.appIds"),
            (["TOKENVEND_INTEGRITY_DEBUG_TOKENS": #"["not-hex"]"#], "integrity.debugTokens[0]"),
            (["TOKENVEND_INTEGRITY_ALLOW_DEBUG_TOKENS": "true"], "integrity.debugTokens"),
            (["TOKENVEND_INTEGRITY_FIREBASE_PROJECT_NUMBER": "my-project"], "integrity.firebase.projectNumber"),
            (["TOKENVEND_INTEGRITY_FIREBASE_APP_IDS": #"["1:2:ios:3"]"#], "integrity.firebase.projectNumber"),
            (["TOKENVEND_INTEGRITY_FIREBASE_PROJECT_NUMBER": "123"], "integrity.firebase.appIds"),
            (["TOKENVEND_INTEGRITY_FIREBASE_JWKS_URL": "http://example.com/jwks"], "integrity.firebase.jwksURL"),
            (["TOKENVEND_INTEGRITY_ANDROID_PACKAGE_NAMES": #"["com.example"]"#], "integrity.android.decryptionKeyFile"),
            (["TOKENVEND_INTEGRITY_ROUTES_VEND": "require"], "integrity.routes.vend"),
            (["TOKENVEND_INTEGRITY_ROUTES_REFRESH": "require"], "integrity.routes.refresh"),
            (
                [
                    "TOKENVEND_INTEGRITY_APPLE_APP_IDS": #"["TEAMID1234.com.example.app"]"#,
                    "TOKENVEND_INTEGRITY_APPLE_ROOT_CERTIFICATE_FILE": fixture.folder + "/missing.pem",
                ],
                "integrity.apple.rootCertificateFile"
            ),
            (
                [
                    "TOKENVEND_VENDORS":
                        #"{"chat": {"preset": "stream-chat", "apiKey": "k", "apiSecret": "\#(strongSecret)", "integrity": "on"}}"#
                ],
                "vendors.chat.integrity"
            ),
        ]
        for (environment, expected) in cases {
            #expect(key(fixture, environment) == expected, "\(environment)")
        }
    }

    @Test("a half-configured Android section names the missing key; a short decryption key is refused")
    func androidKeys() throws {
        let fixture = try ConfigurationFixture()
        let short = try fixture.write("short.key", Data(repeating: 7, count: 16).base64EncodedString())
        let verification = try fixture.write("verification.key", Self.verificationKey)
        let good = try fixture.write("decryption.key", Data(repeating: 7, count: 32).base64EncodedString())
        let base = [
            "TOKENVEND_INTEGRITY_ANDROID_VERIFICATION_KEY_FILE": verification,
            "TOKENVEND_INTEGRITY_ANDROID_PACKAGE_NAMES": #"["com.example.app"]"#,
        ]
        #expect(key(fixture, base) == "integrity.android.decryptionKeyFile")
        let withShort = base.merging(["TOKENVEND_INTEGRITY_ANDROID_DECRYPTION_KEY_FILE": short]) { $1 }
        #expect(key(fixture, withShort) == "integrity.android.decryptionKeyFile")
        let digest = base.merging([
            "TOKENVEND_INTEGRITY_ANDROID_DECRYPTION_KEY_FILE": good,
            "TOKENVEND_INTEGRITY_ANDROID_CERTIFICATE_DIGESTS": #"["AB:CD"]"#,
        ]) { $1 }
        #expect(key(fixture, digest) == "integrity.android.certificateDigests[0]")
    }
}
