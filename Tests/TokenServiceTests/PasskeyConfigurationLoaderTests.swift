import Foundation
import Testing
import WebAuthn

@testable import TokenService

/// The `passkeys` section as `tokenvend serve` loads it: from a file, from `TOKENVEND_PASSKEYS_*` variables, with
/// errors that name the key.
@Suite struct PasskeyConfigurationLoaderTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")

    @Test("passkeys are off by default")
    func offByDefault() throws {
        let configuration = try ConfigurationFixture().resolve()
        #expect(!configuration.passkeys.isEnabled)
        #expect(configuration.passkeys.userVerification == .required)
        #expect(configuration.passkeys.timeoutSeconds == 300)
    }

    @Test("a file's section reaches the configuration, androidApps included, and adds the apps' origins")
    func fromFile() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "c.json",
            """
            {"passkeys": {"rpId": "example.com", "rpName": "Example", "origins": ["https://example.com"],
              "userVerification": "preferred", "timeoutSeconds": 120, "appleAppIds": ["ABCDE12345.com.example.app"],
              "androidApps": [{"package": "com.example.app", "sha256CertFingerprints": ["\(Self.fingerprint)"]}]}}
            """)
        let passkeys = try fixture.resolve(file: file).passkeys
        #expect(passkeys.rpID == "example.com")
        #expect(passkeys.relyingPartyName == "Example")
        #expect(passkeys.userVerification == .preferred)
        #expect(passkeys.timeoutSeconds == 120)
        #expect(passkeys.appleAppIDs == ["ABCDE12345.com.example.app"])
        #expect(passkeys.androidApps.map(\.packageName) == ["com.example.app"])
        #expect(passkeys.androidApps.first?.certificateFingerprints == [Array(0..<32)])
        #expect(
            passkeys.acceptedOrigins == [
                "https://example.com", PasskeyAssociations.apkKeyHashOrigin(fingerprint: Array(0..<32)),
            ])
    }

    @Test("the environment names the keys as the key table derives them")
    func fromEnvironment() throws {
        let passkeys = try ConfigurationFixture().resolve(environment: [
            "TOKENVEND_PASSKEYS_RP_ID": "example.com",
            "TOKENVEND_PASSKEYS_USER_VERIFICATION": "discouraged",
            "TOKENVEND_PASSKEYS_MAX_PENDING_CHALLENGES": "10",
        ]).passkeys
        #expect(passkeys.rpID == "example.com")
        #expect(passkeys.userVerification == .discouraged)
        #expect(passkeys.maxPendingChallenges == 10)
        #expect(passkeys.acceptedOrigins == ["https://example.com"])
    }

    @Test("androidApps without an RP id stops startup naming passkeys.rpId")
    func androidAppsNeedRPID() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "c.json",
            #"{"passkeys": {"androidApps": [{"package": "a.b", "sha256CertFingerprints": ["\#(Self.fingerprint)"]}]}}"#)
        let error = try #require(fixture.error(file: file))
        #expect("\(error)".contains("passkeys.rpId"))
    }

    @Test("a malformed fingerprint, origin or timeout stops startup naming its key")
    func badValues() throws {
        let fixture = try ConfigurationFixture()
        let fingerprint = try fixture.write(
            "f.json",
            #"{"passkeys": {"rpId": "example.com", "androidApps": [{"package": "a.b", "sha256CertFingerprints": ["AB:CD"]}]}}"#
        )
        #expect("\(try #require(fixture.error(file: fingerprint)))".contains("passkeys.androidApps[0]"))
        let origin = try fixture.write(
            "o.json", #"{"passkeys": {"rpId": "example.com", "origins": ["https://evil.example"]}}"#)
        #expect("\(try #require(fixture.error(file: origin)))".contains("passkeys.origins"))
        let timeout = try fixture.write("t.json", #"{"passkeys": {"rpId": "example.com", "timeoutSeconds": 5}}"#)
        #expect("\(try #require(fixture.error(file: timeout)))".contains("passkeys.timeoutSeconds"))
    }
}
