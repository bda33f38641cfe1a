import Foundation
import Testing

@testable import TokenService

@Suite struct ConfigurationStorageTests {
    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test("development keys are generated once with mode 0600 and reused on the next load")
    func developmentKeys() throws {
        let fixture = try ConfigurationFixture()
        let database = fixture.folder + "/nested/data/tokenvend.sqlite"
        let overrides = ConfigurationOverrides(databasePath: database)
        let first = try ConfigurationLoader.load(
            environment: [:], overrides: overrides, defaultConfigPath: fixture.noFile)
        let keyFile = fixture.folder + "/nested/data/tokenvend-keys.json"
        #expect(first.notes == [.developmentKeysGenerated(path: keyFile)])
        #expect(try mode(keyFile) == 0o600)
        #expect(try mode(fixture.folder + "/nested/data") == 0o700)
        let access = try #require(first.configuration.accessToken.activeKey)
        #expect(access.secret.bytes.count >= 64)
        #expect(first.configuration.accessToken.activeKid == access.kid)
        let refresh = try #require(first.configuration.refreshToken.secret)
        #expect(refresh.bytes.count >= 64)
        #expect(refresh != access.secret)

        let second = try ConfigurationLoader.load(
            environment: [:], overrides: overrides, defaultConfigPath: fixture.noFile)
        #expect(second.notes == [.developmentKeysReused(path: keyFile)])
        #expect(second.configuration == first.configuration)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder + "/nested/data")
        #expect(leftovers == ["tokenvend-keys.json"])
    }

    @Test("configured keys are used as given and no key file is written")
    func configuredKeys() throws {
        let fixture = try ConfigurationFixture()
        let database = fixture.folder + "/db.sqlite"
        let loaded = try ConfigurationLoader.load(
            environment: [
                "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"a","secret":"\#(strongSecret)"}]"#,
                "TOKENVEND_REFRESH_TOKEN_SECRET": otherStrongSecret, "TOKENVEND_DATABASE_PATH": database,
            ], defaultConfigPath: fixture.noFile)
        #expect(loaded.notes.isEmpty)
        #expect(loaded.configuration.accessToken.activeKey?.kid == "a")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/tokenvend-keys.json"))
    }

    @Test("a missing refresh secret is added to the key file without replacing its access key")
    func addsRefreshSecret() throws {
        let fixture = try ConfigurationFixture()
        let database = fixture.folder + "/db.sqlite"
        let keyFile = try fixture.write(
            "tokenvend-keys.json", #"{"accessToken": {"kid": "old", "secret": "\#(strongSecret)"}}"#)
        let loaded = try ConfigurationLoader.load(
            environment: ["TOKENVEND_DATABASE_PATH": database], defaultConfigPath: fixture.noFile)
        #expect(loaded.configuration.accessToken.activeKey == .init(kid: "old", secret: .init(strongSecret)))
        #expect(loaded.configuration.refreshToken.secret != nil)
        #expect(loaded.notes.contains(.developmentKeysGenerated(path: keyFile)))
        let stored = try JSONDecoder().decode(
            ConfigurationDevelopmentKeys.self, from: Data(contentsOf: URL(fileURLWithPath: keyFile)))
        #expect(stored.refreshToken?.secret == loaded.configuration.refreshToken.secret?.value)
    }

    @Test("a damaged key file stops the load")
    func damagedKeyFile() throws {
        let fixture = try ConfigurationFixture()
        try fixture.write("tokenvend-keys.json", "{not json")
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(
                environment: ["TOKENVEND_DATABASE_PATH": fixture.folder + "/db.sqlite"],
                defaultConfigPath: fixture.noFile)
        }
    }

    @Test("a database folder that cannot be created is refused naming database.path")
    func unwritableFolder() throws {
        let fixture = try ConfigurationFixture()
        // Tests run as root, so permissions would not stop them: put the folder under a regular file.
        let file = try fixture.write("plain-file", "x")
        let database = file + "/sub/tokenvend.sqlite"
        do {
            _ = try ConfigurationLoader.load(
                environment: [:], overrides: .init(databasePath: database), defaultConfigPath: fixture.noFile)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("database.path: cannot create folder \"\(file)/sub\""))
        }
        do {
            _ = try ConfigurationLoader.load(
                environment: [:], overrides: .init(databasePath: "/proc/tokenvend.sqlite"),
                defaultConfigPath: fixture.noFile)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("database.path: folder \"/proc\" is not writable"))
        }
    }

    @Test("a database path that is a folder is refused")
    func databaseIsFolder() throws {
        let fixture = try ConfigurationFixture()
        #expect(
            throws: ConfigurationError.storage(
                key: "database.path", reason: "\"\(fixture.folder)\" is a folder, not a database file")
        ) {
            try ConfigurationLoader.load(
                environment: [:], overrides: .init(databasePath: fixture.folder), defaultConfigPath: fixture.noFile)
        }
    }
}
