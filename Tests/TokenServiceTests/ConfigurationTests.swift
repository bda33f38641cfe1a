import Foundation
import HTTPServer
import Logging
import SQLiteStore
import Store
import Testing

@testable import TokenService

/// A temporary folder per test, removed at the end, with helpers to write files into it.
final class ConfigurationFixture {
    let folder: String

    init() throws {
        let path = FileManager.default.temporaryDirectory.path + "/tokenvend-config-" + UUID().uuidString
        // 0700, as tokenvend wants the folder of a database: an 0755 one would be noted at every load.
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        folder = path
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes `text` to `name` inside the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A default path that does not exist, so no configuration file is read.
    var noFile: String { folder + "/absent.json" }

    /// Resolves with `environment` only (no file unless `file` is given).
    func resolve(
        file: String? = nil, environment: [String: String] = [:], overrides: ConfigurationOverrides = .init()
    ) throws -> TokenServiceConfiguration {
        try ConfigurationLoader.resolve(
            configPath: file, environment: environment, overrides: overrides, defaultConfigPath: noFile
        ).configuration
    }

    /// The error thrown when resolving, or `nil`.
    func error(
        file: String? = nil, environment: [String: String] = [:], overrides: ConfigurationOverrides = .init()
    ) -> ConfigurationError? {
        do {
            _ = try resolve(file: file, environment: environment, overrides: overrides)
            return nil
        } catch let error as ConfigurationError {
            return error
        } catch {
            return nil
        }
    }
}

let strongSecret = String(repeating: "s3cr3t-", count: 10)
/// A second strong secret, for a second purpose (one key may serve one purpose only).
let otherStrongSecret = String(repeating: "0th3r-s3cr3t-", count: 6)

@Suite struct ConfigurationTests {
    @Test("with no file, environment or flags the configuration is the built-in defaults")
    func defaults() throws {
        let fixture = try ConfigurationFixture()
        let configuration = try fixture.resolve()
        #expect(configuration == TokenServiceConfiguration())
        #expect(configuration.server.host == "127.0.0.1")
        #expect(configuration.server.port == 8080)
        #expect(configuration.server.maxConnections == 10000)
        #expect(configuration.server.bodyIdleTimeout == .seconds(10))
        #expect(configuration.server.writeTimeout == .seconds(10))
        #expect(configuration.server.shutdownGrace == .seconds(20))
        #expect(configuration.database.path == "data/tokenvend.sqlite")
        #expect(configuration.refreshToken.reuseGraceSeconds == 10)
        #expect(configuration.password.memoryCost == 19456)
        #expect(configuration.password.maxConcurrentHashes == ProcessInfo.processInfo.activeProcessorCount)
        #expect(configuration.moss == nil)
        #expect(MossConfiguration.defaultAuthURL.absoluteString == "https://service.usemoss.dev/identity/auth/token")
        #expect(configuration.log.level == .info)
        #expect(configuration.log.format == .json)
    }

    @Test("the checked-in Config/tokenvend.json equals the built-in defaults")
    func checkedInDefaults() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let fixture = try ConfigurationFixture()
        let path = root.appendingPathComponent("Config/tokenvend.json").path
        #expect(try fixture.resolve(file: path) == TokenServiceConfiguration())
    }

    /// The operations guide: docs/OPERATIONS.md and the task files under docs/operations/ it links, as one text.
    static func operationsGuide(root: URL) throws -> String {
        let folder = root.appendingPathComponent("docs/operations")
        let tasks = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
        #expect(tasks.contains("configuration.md"), "docs/operations/ has no configuration.md")
        let files =
            [root.appendingPathComponent("docs/OPERATIONS.md")]
            + tasks.sorted().map { folder.appendingPathComponent($0) }
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    @Test("the operations guide (OPERATIONS.md and docs/operations/) documents every key and its environment variable")
    func operationsGuideCoversEveryKey() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try Self.operationsGuide(root: root)
        for key in ConfigurationKey.all {
            #expect(guide.contains("`\(key.path)`"), "missing key \(key.path)")
            #expect(guide.contains("`\(key.environmentName)`"), "missing variable \(key.environmentName)")
        }
    }

    @Test("every place the docs state the password minimum gives password.minLength's default and range")
    func passwordMinimumInDocs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        func read(_ path: String) throws -> String {
            try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }
        let minimum = TokenServiceConfiguration.Password().minLength
        let key = try #require(ConfigurationKey.all.first { $0.path == "password.minLength" })
        guard case .integer(let range) = key.kind else {
            Issue.record("password.minLength is not an integer key")
            return
        }
        let bounds = "\(range.lowerBound)–\(range.upperBound)"
        let api = try read("docs/API.md")
        #expect(
            api.contains("Passwords: \(minimum)–128 characters (`password.minLength`, \(bounds), default \(minimum))"))
        // The table of defaults: "| `password.minLength` / `password.timeCost` / … | 12 / 2 / 19456 | …".
        let row = try #require(api.split(separator: "\n").first { $0.hasPrefix("| `password.minLength`") })
        let defaults = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(defaults.count > 2 && defaults[1].hasPrefix("\(minimum) /"), "\(row)")
        #expect(row.contains("(\(bounds) characters)"))
        let operations = try Self.operationsGuide(root: root)
        #expect(operations.contains("| `password.minLength` | `TOKENVEND_PASSWORD_MIN_LENGTH` | `\(minimum)` |"))
        #expect(operations.contains("need `password.minLength` characters (default \(minimum),"))
        #expect(try read("README.md").contains("passwords are \(minimum)–128 characters"))
        let openAPI = try read("docs/openapi.yaml")
        #expect(openAPI.contains("    Password:\n      type: string\n      minLength: \(minimum)\n"))
        #expect(openAPI.contains("(the minimum is `password.minLength`, \(bounds),\n        default \(minimum))"))
        let wire = try read("Sources/AuthAPI/RegisterRequest.swift")
        #expect(wire.contains("Password, \(minimum)–128 characters"))
        #expect(wire.contains("`password.minLength`,\n    /// \(bounds), default \(minimum))"))
    }

    @Test("the production example is valid once its secret files exist")
    func productionExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let fixture = try ConfigurationFixture()
        let example = try String(
            contentsOf: root.appendingPathComponent("Config/tokenvend.production.example.json"), encoding: .utf8)
        let file = try fixture.write("production.json", example.replacing("/run/secrets/", with: fixture.folder + "/"))
        // One secret per purpose: a key shared between them stops startup.
        for name in ["access_token_key", "refresh_token_secret", "moss_project_key", "stream_key", "smtp_password"] {
            try fixture.write(name, (name == "access_token_key" ? strongSecret : name + "-" + strongSecret) + "\n")
        }
        let configuration = try fixture.resolve(file: file)
        #expect(configuration.server.host == "0.0.0.0")
        #expect(configuration.database.path == "/data/tokenvend.sqlite")
        #expect(configuration.accessToken.activeKey?.secret.value == strongSecret)
        #expect(configuration.refreshToken.secret?.value == "refresh_token_secret-" + strongSecret)
        #expect(configuration.moss != nil)
        #expect(configuration.stream.activeKey?.kid == "stream-2026-11")
        #expect(configuration.email.transportName == "smtp")
    }

    @Test("file values replace defaults and keys not in the file keep them")
    func fileLayer() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "c.json", #"{"server": {"port": 9000}, "registration": {"enabled": false}, "log": {"format": "logfmt"}}"#)
        let configuration = try fixture.resolve(file: file)
        #expect(configuration.server.port == 9000)
        #expect(configuration.server.host == "127.0.0.1")
        #expect(configuration.registration.enabled == false)
        #expect(configuration.log.format == .logfmt)
    }

    @Test("the environment overrides the file, and list keys are given as JSON")
    func environmentLayer() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"server": {"port": 9000}, "refreshToken": {"reuseGraceSeconds": 5}}"#)
        let configuration = try fixture.resolve(
            file: file,
            environment: [
                "TOKENVEND_SERVER_PORT": "9100",
                "TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "3",
                "TOKENVEND_REGISTRATION_ENABLED": "false",
                "TOKENVEND_STREAM_KEYS":
                    #"[{"kid":"k1","secret":"\#(strongSecret)"},{"kid":"k2","secret":"\#(strongSecret)"}]"#,
                "TOKENVEND_STREAM_ACTIVE_KID": "k2",
                "TOKENVEND_MOSS_AUTH_URL": "http://127.0.0.1:9999/token",
                "TOKENVEND_MOSS_PROJECT_ID": "p", "TOKENVEND_MOSS_PROJECT_KEY": "k",
                "PATH": "/usr/bin",
            ])
        #expect(configuration.server.port == 9100)
        #expect(configuration.refreshToken.reuseGraceSeconds == 3)
        #expect(configuration.registration.enabled == false)
        #expect(configuration.stream.keys.map(\.kid) == ["k1", "k2"])
        #expect(configuration.stream.activeKey?.kid == "k2")
        #expect(configuration.moss?.authURL.absoluteString == "http://127.0.0.1:9999/token")
    }

    @Test("flags win over the environment and the file")
    func flagsWin() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"server": {"host": "10.0.0.1", "port": 9000}}"#)
        let configuration = try fixture.resolve(
            file: file, environment: ["TOKENVEND_SERVER_PORT": "9100", "TOKENVEND_DATABASE_PATH": "/tmp/a.sqlite"],
            overrides: ConfigurationOverrides(host: "::1", port: 0, databasePath: "/tmp/b.sqlite"))
        #expect(configuration.server.host == "::1")
        #expect(configuration.server.port == 0)
        #expect(configuration.database.path == "/tmp/b.sqlite")
    }

    @Test("LOG_LEVEL is honoured and TOKENVEND_LOG_LEVEL wins over it")
    func logLevel() throws {
        let fixture = try ConfigurationFixture()
        #expect(try fixture.resolve(environment: ["LOG_LEVEL": "debug"]).log.level == .debug)
        let both = try fixture.resolve(environment: ["LOG_LEVEL": "debug", "TOKENVEND_LOG_LEVEL": "error"])
        #expect(both.log.level == .error)
    }

    @Test("environment names are the key path in upper snake case")
    func environmentNames() {
        #expect(ConfigurationKey.environmentName(for: "server.port") == "TOKENVEND_SERVER_PORT")
        #expect(
            ConfigurationKey.environmentName(for: "refreshToken.reuseGraceSeconds")
                == "TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS")
        #expect(ConfigurationKey.environmentName(for: "moss.authURL") == "TOKENVEND_MOSS_AUTH_URL")
        #expect(ConfigurationKey.environmentName(for: "moss.projectKeyFile") == "TOKENVEND_MOSS_PROJECT_KEY_FILE")
        let names = ConfigurationKey.all.map(\.environmentName)
        #expect(Set(names).count == names.count)
    }

    @Test("server.requestTimeoutSeconds defaults to 30 s and reaches the HTTP server's request timeout")
    func requestTimeout() throws {
        let fixture = try ConfigurationFixture()
        let defaults = try fixture.resolve()
        #expect(defaults.server.requestTimeout == .seconds(30))
        let set = try fixture.resolve(environment: ["TOKENVEND_SERVER_REQUEST_TIMEOUT_SECONDS": "7"])
        #expect(set.server.requestTimeout == .seconds(7))
        let file = try fixture.write("c.json", #"{"server":{"requestTimeoutSeconds":45}}"#)
        #expect(try fixture.resolve(file: file).server.requestTimeout == .seconds(45))
    }

    @Test("a secret file's trimmed contents are the secret")
    func secretFileTrimmed() throws {
        let fixture = try ConfigurationFixture()
        let path = try fixture.write("refresh", "  \(strongSecret)\n\n")
        let configuration = try fixture.resolve(environment: ["TOKENVEND_REFRESH_TOKEN_SECRET_FILE": path])
        #expect(configuration.refreshToken.secret?.value == strongSecret)
        let keyFile = try fixture.write("access", strongSecret + "\r\n")
        let file = try fixture.write(
            "c.json", #"{"accessToken": {"keys": [{"kid": "a", "secretFile": "\#(keyFile)"}]}}"#)
        let withKeys = try fixture.resolve(file: file)
        #expect(withKeys.accessToken.keys == [.init(kid: "a", secret: .init(strongSecret))])
        #expect(withKeys.accessToken.activeKid == "a")
    }

    @Test("a later layer's secretFile replaces an earlier layer's secret")
    func secretAcrossLayers() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"refreshToken": {"secret": "\#(strongSecret)A"}}"#)
        let path = try fixture.write("refresh", strongSecret + "B")
        let configuration = try fixture.resolve(
            file: file, environment: ["TOKENVEND_REFRESH_TOKEN_SECRET_FILE": path])
        #expect(configuration.refreshToken.secret?.value == strongSecret + "B")

        let nullSibling = try fixture.write("n.json", #"{"refreshToken": {"secret": null, "secretFile": "\#(path)"}}"#)
        #expect(try fixture.resolve(file: nullSibling).refreshToken.secret?.value == strongSecret + "B")
        let unset = try fixture.resolve(file: file, environment: ["TOKENVEND_REFRESH_TOKEN_SECRET": ""])
        #expect(unset.refreshToken.secret == nil)
    }

    @Test("secrets never appear in descriptions")
    func redaction() throws {
        let fixture = try ConfigurationFixture()
        let configuration = try fixture.resolve(environment: [
            "TOKENVEND_STREAM_KEYS": #"[{"kid":"k1","secret":"\#(strongSecret)"}]"#,
            "TOKENVEND_REFRESH_TOKEN_SECRET": otherStrongSecret,
        ])
        for secret in [strongSecret, otherStrongSecret] {
            #expect(!String(describing: configuration).contains(secret))
            #expect(!String(reflecting: configuration).contains(secret))
        }
        #expect(String(describing: configuration.stream.keys[0]).contains("k1"))
    }
}
