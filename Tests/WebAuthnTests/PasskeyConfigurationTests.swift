import Configuration
import Cryptography
import StrictJSON
import Testing
import WebAuthn

@Suite("PasskeyConfiguration, PasskeyAssociations and CeremonyOptions")
struct PasskeyConfigurationTests {
    static let fingerprintText =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let fingerprint = Hex.decode(fingerprintText.split(separator: ":").joined()) ?? []

    static func read(
        _ values: [AbsoluteConfigKey: ConfigValue], androidApps: [PasskeyConfiguration.AndroidApp] = []
    ) throws(PasskeyConfigurationError) -> PasskeyConfiguration {
        try PasskeyConfiguration(
            reader: ConfigReader(provider: InMemoryProvider(values: values)).scoped(to: "passkeys"),
            androidApps: androidApps)
    }

    static func strings(_ values: [String]) -> ConfigValue { ConfigValue(.stringArray(values), isSecret: false) }

    static func refusal(_ values: [AbsoluteConfigKey: ConfigValue], androidApps: [PasskeyConfiguration.AndroidApp] = [])
        -> String?
    {
        do {
            _ = try read(values, androidApps: androidApps)
            return nil
        } catch {
            return error.path
        }
    }

    @Test("nothing set: passkeys off, with the defaults")
    func off() throws {
        let configuration = try Self.read([:])
        #expect(!configuration.isEnabled && configuration == PasskeyConfiguration())
        #expect(configuration.acceptedOrigins.isEmpty)
    }

    @Test("every key is read; origins default to https://<rpId>, and each Android fingerprint adds its origin")
    func reads() throws {
        let app = PasskeyConfiguration.AndroidApp(
            packageName: "com.example.app", certificateFingerprints: [Self.fingerprint])
        let configuration = try Self.read(
            [
                "passkeys.rpId": "example.com", "passkeys.rpName": "Example", "passkeys.userVerification": "preferred",
                "passkeys.timeoutSeconds": 120, "passkeys.maxPendingChallenges": 50,
                "passkeys.appleAppIds": Self.strings(["ABCDE12345.com.example.app"]),
            ], androidApps: [app])
        #expect(configuration.rpID == "example.com" && configuration.relyingPartyName == "Example")
        #expect(configuration.userVerification == .preferred && configuration.timeoutSeconds == 120)
        #expect(configuration.maxPendingChallenges == 50 && configuration.appleAppIDs == ["ABCDE12345.com.example.app"])
        #expect(
            configuration.acceptedOrigins == [
                "https://example.com", "android:apk-key-hash:FG3pg8VzBlDY7rmVLzT8ZBagg0LmHb6oigSWsj_PROU",
            ])
        let explicit = try Self.read(
            [
                "passkeys.rpId": "localhost",
                "passkeys.origins": Self.strings(["http://localhost:8080", "https://localhost"]),
            ], androidApps: [app, app])
        #expect(explicit.acceptedOrigins.count == 3)
    }

    @Test(
        "refuses bad values, naming the key",
        arguments: [
            (["passkeys.rpId": "Example.com"], "passkeys.rpId"), (["passkeys.rpId": "127.0.0.1"], "passkeys.rpId"),
            (["passkeys.rpId": "com"], "passkeys.rpId"), (["passkeys.rpName": "x"], "passkeys.rpName"),
            (["passkeys.origins": strings(["https://example.com"])], "passkeys.origins"),
            (
                ["passkeys.rpId": "example.com", "passkeys.origins": strings(["http://example.com"])],
                "passkeys.origins[0]"
            ),
            (
                ["passkeys.rpId": "example.com", "passkeys.origins": strings(["https://evil.com"])],
                "passkeys.origins[0]"
            ),
            (
                ["passkeys.rpId": "example.com", "passkeys.origins": strings(["https://badexample.com"])],
                "passkeys.origins[0]"
            ),
            (
                [
                    "passkeys.rpId": "example.com",
                    "passkeys.origins": strings(["https://a.example.com", "android:apk-key-hash:abc"]),
                ],
                "passkeys.origins[1]"
            ),
            (
                ["passkeys.rpId": "example.com", "passkeys.origins": strings(["https://example.com/path"])],
                "passkeys.origins[0]"
            ),
            (["passkeys.rpId": "example.com", "passkeys.userVerification": "always"], "passkeys.userVerification"),
            (["passkeys.rpId": "example.com", "passkeys.timeoutSeconds": 10], "passkeys.timeoutSeconds"),
            (["passkeys.rpId": "example.com", "passkeys.maxPendingChallenges": 0], "passkeys.maxPendingChallenges"),
            (
                ["passkeys.rpId": "example.com", "passkeys.appleAppIds": strings(["com.example.app"])],
                "passkeys.appleAppIds[0]"
            ),
            (["passkeys.rpId": "example.com", "passkeys.rpName": " "], "passkeys.rpName"),
        ] as [([AbsoluteConfigKey: ConfigValue], String)])
    func refuses(values: [AbsoluteConfigKey: ConfigValue], path: String) {
        #expect(Self.refusal(values) == path)
    }

    @Test("android apps without rpId are refused; the origin names the subdomain rule")
    func androidWithoutRPID() {
        let app = PasskeyConfiguration.AndroidApp(
            packageName: "com.example.app", certificateFingerprints: [Self.fingerprint])
        #expect(Self.refusal([:], androidApps: [app]) == "passkeys.androidApps")
        #expect(
            Self.refusal([
                "passkeys.rpId": "example.com", "passkeys.origins": Self.strings(["https://login.example.com:8443"]),
            ]) == nil)
    }

    @Test("androidApps reads fingerprints with or without colons, in either case; null is none")
    func androidApps() throws {
        let section = try JSONValue.parse(
            Array(
                #"[{"package":"com.example.app","sha256CertFingerprints":["\#(Self.fingerprintText)","\#(Hex.encode(Array(repeating: 0xAB, count: 32)))"]}]"#
                    .utf8))
        let apps = try PasskeyConfiguration.androidApps(section: section)
        #expect(
            apps == [
                .init(
                    packageName: "com.example.app",
                    certificateFingerprints: [Self.fingerprint, Array(repeating: 0xAB, count: 32)])
            ])
        #expect(try PasskeyConfiguration.androidApps(section: .null).isEmpty)
    }

    @Test(
        "androidApps refuses bad shapes with the path inside the section",
        arguments: [
            (#"{"package":"a.b"}"#, ""), (#"["x"]"#, "[0]"),
            (#"[{"package":"app","sha256CertFingerprints":["\#(String(repeating: "a", count: 64))"]}]"#, "[0].package"),
            (#"[{"package":"a.b","sha256CertFingerprints":[]}]"#, "[0].sha256CertFingerprints"),
            (#"[{"package":"a.b","sha256CertFingerprints":["AB:CD"]}]"#, "[0].sha256CertFingerprints[0]"),
            (
                #"[{"package":"a.b","sha256CertFingerprints":["\#(String(repeating: "g", count: 64))"]}]"#,
                "[0].sha256CertFingerprints[0]"
            ),
            (#"[{"package":"a.b","sha256CertFingerprints":["\#(String(repeating: "a", count: 64))"],"x":1}]"#, "[0].x"),
        ])
    func androidAppsRefused(json: String, path: String) throws {
        let section = try JSONValue.parse(Array(json.utf8))
        #expect(throws: PasskeyConfigurationError.self) { try PasskeyConfiguration.androidApps(section: section) }
        do {
            _ = try PasskeyConfiguration.androidApps(section: section)
        } catch {
            #expect(error.path == path)
        }
    }

    @Test("the association files are the issue's exact JSON")
    func associations() {
        let aasa = PasskeyAssociations.appleAppSiteAssociation(appIDs: ["ABCDE12345.com.example.app"])
        #expect(String(decoding: aasa, as: UTF8.self) == #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#)
        let links = PasskeyAssociations.assetLinks(apps: [
            .init(packageName: "com.example.app", certificateFingerprints: [Self.fingerprint])
        ])
        #expect(
            String(decoding: links, as: UTF8.self)
                == #"[{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["\#(Self.fingerprintText)"]}}]"#
        )
        #expect(PasskeyAssociations.fingerprintText(Self.fingerprint) == Self.fingerprintText)
        #expect(
            PasskeyAssociations.apkKeyHashOrigin(fingerprint: Self.fingerprint)
                == "android:apk-key-hash:FG3pg8VzBlDY7rmVLzT8ZBagg0LmHb6oigSWsj_PROU")
    }

    @Test("the options JSON has the API types' members, ES256/EdDSA/RS256 and the timeout in milliseconds")
    func options() {
        var configuration = Fixtures.configuration()
        configuration.timeoutSeconds = 300
        let creation = CeremonyOptions.creation(
            challenge: [1, 2, 3], configuration: configuration, userHandle: [4, 5, 6], userName: "a@example.com",
            displayName: "A", excluding: [.init(id: [7], transports: ["internal"]), .init(id: [8], transports: [])])
        #expect(
            String(decoding: creation, as: UTF8.self)
                == #"{"challenge":"AQID","rp":{"id":"example.com","name":"Example"},"user":{"id":"BAUG","name":"a@example.com","displayName":"A"},"pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-8},{"type":"public-key","alg":-257}],"excludeCredentials":[{"type":"public-key","id":"Bw","transports":["internal"]},{"type":"public-key","id":"CA"}],"authenticatorSelection":{"residentKey":"required","requireResidentKey":true,"userVerification":"required"},"attestation":"none","timeout":300000}"#
        )
        let request = CeremonyOptions.request(challenge: [1, 2, 3], configuration: configuration)
        #expect(
            String(decoding: request, as: UTF8.self)
                == #"{"challenge":"AQID","rpId":"example.com","userVerification":"required","timeout":300000,"allowCredentials":[]}"#
        )
    }
}
