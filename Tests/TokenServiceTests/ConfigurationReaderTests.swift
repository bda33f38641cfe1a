import Configuration
import Foundation
import Synchronization
import Testing

@testable import TokenService

/// What tokenvend adds over swift-configuration, one test per point. The library layers providers and hands
/// each component a `ConfigReader`; tokenvend checks every layer against its key table before that.
@Suite struct ConfigurationReaderTests {
    @Test("unknown keys in the file are refused with a suggestion (the library's providers ignore them)")
    func unknownFileKeys() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"server": {"maxBodyByte": 1}}"#)
        #expect(
            fixture.error(file: file)
                == .unknownKey(key: "server.maxBodyByte", source: file, suggestion: "server.maxBodyBytes"))
    }

    @Test("unknown TOKENVEND_ variables are refused with a suggestion, Kubernetes service links are skipped")
    func unknownEnvironmentVariables() throws {
        let fixture = try ConfigurationFixture()
        #expect(
            fixture.error(environment: ["TOKENVEND_LOG_LEVL": "debug"])
                == .unknownEnvironmentVariable("TOKENVEND_LOG_LEVL", suggestion: "log.level"))
        let loaded = try ConfigurationLoader.resolve(
            environment: ["TOKENVEND_SERVICE_HOST": "10.0.0.1"], defaultConfigPath: fixture.noFile)
        #expect(loaded.ignoredEnvironmentVariables == ["TOKENVEND_SERVICE_HOST"])
    }

    @Test("a value of the wrong type is an error, where the library's defaulting readers fall back silently")
    func typeErrorsAreNotSwallowed() throws {
        let library = ConfigReader(provider: InMemoryProvider(values: ["server.port": "abc"]))
        #expect(library.int(forKey: "server.port", default: 8080) == 8080)

        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"server": {"port": "9000"}}"#)
        #expect(
            fixture.error(file: file)?.description
                == #"server.port (\#(file)): expected an integer from 0 to 65535, got "9000""#)
    }

    @Test("a wrong value is refused even when a later layer overrides it: every layer is checked in full")
    func overriddenLayersAreChecked() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"server": {"port": 70000}}"#)
        #expect(
            fixture.error(file: file, environment: ["TOKENVEND_SERVER_PORT": "9000"])?.description
                == "server.port (\(file)): expected an integer from 0 to 65535, got 70000")
    }

    @Test("ranges and cross-key rules are checked")
    func rangesAndCrossKeyRules() throws {
        let fixture = try ConfigurationFixture()
        #expect(
            fixture.error(environment: ["TOKENVEND_SESSION_MAX_PER_USER": "0"])?.description
                == "session.maxPerUser (TOKENVEND_SESSION_MAX_PER_USER): expected an integer from 1 to 10000, got 0")
        #expect(
            fixture.error(environment: [
                "TOKENVEND_REFRESH_TOKEN_TTL_SECONDS": "60",
                "TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "60",
            ])?.description
                == "refreshToken.reuseGraceSeconds: must be shorter than refreshToken.ttlSeconds")
    }

    @Test("secret files are read and trimmed, and secrets are redacted in descriptions")
    func secretFilesAndRedaction() throws {
        let fixture = try ConfigurationFixture()
        let path = try fixture.write("moss", strongSecret + "\n")
        let configuration = try fixture.resolve(environment: [
            "TOKENVEND_MOSS_PROJECT_ID": "p", "TOKENVEND_MOSS_PROJECT_KEY_FILE": path,
        ])
        #expect(configuration.moss?.projectKey == strongSecret)
        #expect(!String(describing: configuration).contains(strongSecret))
        #expect(!String(reflecting: configuration).contains(strongSecret))
    }

    @Test("errors are one line naming the key and its source: file path, variable or flag")
    func oneLineErrorsNameKeyAndSource() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"log": {"format": "xml"}}"#)
        let errors = [
            fixture.error(file: file),
            fixture.error(environment: ["TOKENVEND_LOG_FORMAT": "xml"]),
            fixture.error(overrides: ConfigurationOverrides(port: 70000)),
        ].map { $0?.description ?? "" }
        #expect(errors[0].hasPrefix("log.format (\(file)): "))
        #expect(errors[1].hasPrefix("log.format (TOKENVEND_LOG_FORMAT): "))
        #expect(errors[2].hasPrefix("server.port (--port): "))
        #expect(errors.allSatisfy { !$0.contains("\n") })
    }

    @Test("development keys are generated when none are configured")
    func generatedDevelopmentKeys() throws {
        let fixture = try ConfigurationFixture()
        let loaded = try ConfigurationLoader.load(
            environment: [:], overrides: ConfigurationOverrides(databasePath: fixture.folder + "/db.sqlite"),
            defaultConfigPath: fixture.noFile)
        #expect(loaded.notes == [.developmentKeysGenerated(path: fixture.folder + "/tokenvend-keys.json")])
        #expect(loaded.configuration.accessToken.activeKey != nil)
        #expect(loaded.configuration.refreshToken.secret != nil)
    }

    @Test("every key of the table is read by a component with the type its layer stored")
    func everyKeyReadWithItsType() throws {
        let fixture = try ConfigurationFixture()
        // One secret per purpose: a key shared between them stops startup.
        let secretPath = try fixture.write("secret", "refresh-" + strongSecret)
        let keys = #"[{"kid":"k","secret":"\#(strongSecret)"}]"#
        let streamKeys = #"[{"kid":"k","secret":"stream-\#(strongSecret)"}]"#
        var environment: [String: String] = [:]
        for key in ConfigurationKey.all {
            switch key.kind {
            case .integer(let range): environment[key.environmentName] = String(range.upperBound)
            case .boolean: environment[key.environmentName] = "true"
            case .string, .optionalString, .secret: environment[key.environmentName] = "k"
            case .secretFile: break
            case .publicURL: environment[key.environmentName] = "https://auth.example.com"
            case .url: environment[key.environmentName] = "https://moss.example/token"
            case .cidrList: environment[key.environmentName] = #"["10.0.0.0/8"]"#
            case .nameList: environment[key.environmentName] = #"["apple"]"#
            case .choice(let names): environment[key.environmentName] = names[0]
            case .section:
                // Parsed by their owners, not read through the reader (IdentityProviderSectionTests,
                // VendorConfigurationTests, AccessKeyConfigurationTests).
                environment[key.environmentName] =
                    [
                        "vendors":
                            #"{"chat":{"preset":"stream-chat","apiKey":"key","apiSecret":"chat-\#(strongSecret)"}}"#,
                        "identityProviders": #"{"apple":{"preset":"apple","audiences":["com.example.app"]}}"#,
                        "accessToken.keys": keys, "stream.keys": streamKeys,
                    ][key.path]
            }
        }
        // `Mail` checks these when it reads them: a sender address, and a URL SMTP can be spoken to.
        environment["TOKENVEND_EMAIL_FROM"] = "k <k@example.com>"
        environment["TOKENVEND_EMAIL_SMTP_URL"] = "smtp://127.0.0.1:2525"
        environment["TOKENVEND_REFRESH_TOKEN_SECRET"] = nil
        environment["TOKENVEND_REFRESH_TOKEN_SECRET_FILE"] = secretPath
        environment["TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS"] = "1"
        // A path the loader reads and checks: a 0600 file of one base64 line of 32 bytes.
        let tokenKey = try fixture.write("token-key", Data(repeating: 1, count: 32).base64EncodedString())
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenKey)
        environment["TOKENVEND_IDENTITY_TOKEN_ENCRYPTION_KEY_FILE"] = tokenKey
        // The integrity section checks what it reads: app ids, keys, digests, the project number, hashes.
        environment["TOKENVEND_INTEGRITY_APPLE_APP_IDS"] = #"["TEAMID1234.com.example.app"]"#
        environment["TOKENVEND_INTEGRITY_APPLE_ROOT_CERTIFICATE_FILE"] = nil
        environment["TOKENVEND_INTEGRITY_ANDROID_DECRYPTION_KEY"] = Data(repeating: 7, count: 32).base64EncodedString()
        environment["TOKENVEND_INTEGRITY_ANDROID_VERIFICATION_KEY"] = IntegrityConfigurationTests.verificationKey
        let digest = IntegrityConfigurationTests.digestHex
        environment["TOKENVEND_INTEGRITY_ANDROID_CERTIFICATE_DIGESTS"] = #"["\#(digest)"]"#
        environment["TOKENVEND_INTEGRITY_FIREBASE_PROJECT_NUMBER"] = "1234567890"
        environment["TOKENVEND_INTEGRITY_DEBUG_TOKENS"] = #"["\#(IntegrityConfigurationTests.hash)"]"#
        // The dpop section checks its algorithms and the nonce secret's strength.
        environment["TOKENVEND_DPOP_ALGORITHMS"] = #"["ES256","EdDSA"]"#
        environment["TOKENVEND_DPOP_NONCE_SECRET"] = "dpop-" + strongSecret
        // The passkeys section checks its RP id, origins and app ids.
        environment["TOKENVEND_PASSKEYS_RP_ID"] = "example.com"
        environment["TOKENVEND_PASSKEYS_ORIGINS"] = #"["https://example.com"]"#
        environment["TOKENVEND_PASSKEYS_APPLE_APP_IDS"] = #"["TEAMID1234.com.example.app"]"#
        environment["TOKENVEND_PASSKEYS_ANDROID_APPS"] =
            #"[{"package":"com.example.app","sha256CertFingerprints":["\#(IntegrityConfigurationTests.digestHex)"]}]"#
        // database.url excludes database.path: each is read in its own pass.
        environment["TOKENVEND_DATABASE_URL"] = nil
        var postgres = environment
        postgres["TOKENVEND_DATABASE_PATH"] = nil
        postgres["TOKENVEND_DATABASE_URL"] = "postgres://tokenvend@db.example:5432/tokenvend"
        let reporter = ReadRecorder()
        for layer in [environment, postgres] {
            _ = try ConfigurationLoader.resolve(
                configPath: nil, environment: layer, overrides: ConfigurationOverrides(),
                defaultConfigPath: fixture.noFile, accessReporter: reporter)
        }
        let read = reporter.keysReadWithValue
        for key in ConfigurationKey.all where !key.path.hasSuffix("File") {
            if case .section = key.kind { continue }
            #expect(read.contains(key.path), "not read, or read with another type: \(key.path)")
        }
        #expect(reporter.conversionErrors.isEmpty)
    }
}

/// Records which keys a reader found a value for, and any conversion error.
final class ReadRecorder: AccessReporter, Sendable {
    private let state = Mutex<(read: Set<String>, errors: [String])>(([], []))

    func report(_ event: AccessEvent) {
        let found = event.providerResults.contains { result in
            if case .success(let lookup) = result.result { return lookup.value != nil }
            return false
        }
        state.withLock { state in
            if found { state.read.insert(event.metadata.key.components.joined(separator: ".")) }
            if let error = event.conversionError { state.errors.append("\(event.metadata.key): \(error)") }
        }
    }

    var keysReadWithValue: Set<String> { state.withLock { $0.read } }
    var conversionErrors: [String] { state.withLock { $0.errors } }
}
