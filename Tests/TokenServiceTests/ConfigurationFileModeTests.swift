import Foundation
import Testing

@testable import TokenService

/// Folders and key files the configuration creates are private whatever the umask, and existing storage that
/// others can read is reported for the log. The umask is process-wide: set around one call, then restored.
@Suite(.serialized) struct ConfigurationFileModeTests {
    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test("the database folders are 0700 and the development key file 0600 whatever the umask", arguments: [0, 0o022])
    func privateModes(umaskValue: Int) throws {
        let fixture = try ConfigurationFixture()
        let overrides = ConfigurationOverrides(databasePath: fixture.folder + "/fresh/data/tokenvend.sqlite")
        let previous = umask(mode_t(umaskValue))
        let loaded = Result { () throws -> ConfigurationLoadResult in
            try ConfigurationLoader.load(environment: [:], overrides: overrides, defaultConfigPath: fixture.noFile)
        }
        umask(previous)
        _ = try loaded.get()
        #expect(try mode(fixture.folder + "/fresh") == 0o700)
        #expect(try mode(fixture.folder + "/fresh/data") == 0o700)
        #expect(try mode(fixture.folder + "/fresh/data/tokenvend-keys.json") == 0o600)
    }

    @Test("an existing database, -wal file or folder that others can read is noted at load, naming the path")
    func warnsAboutPermissiveStorage() throws {
        let fixture = try ConfigurationFixture()
        let folder = fixture.folder + "/shared"
        let database = folder + "/tokenvend.sqlite"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        FileManager.default.createFile(atPath: database, contents: nil, attributes: [.posixPermissions: 0o644])
        FileManager.default.createFile(atPath: database + "-wal", contents: nil, attributes: [.posixPermissions: 0o640])
        let environment = [
            "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"k1","secret":"\#(String(repeating: "a", count: 64))"}]"#,
            "TOKENVEND_REFRESH_TOKEN_SECRET": String(repeating: "b", count: 64),
        ]
        let loaded = try ConfigurationLoader.load(
            environment: environment, overrides: ConfigurationOverrides(databasePath: database),
            defaultConfigPath: fixture.noFile)
        #expect(
            loaded.notes == [
                .storageReadableByOthers(path: folder, mode: "0755", expected: "0700"),
                .storageReadableByOthers(path: database, mode: "0644", expected: "0600"),
                .storageReadableByOthers(path: database + "-wal", mode: "0640", expected: "0600"),
            ])
        #expect(
            loaded.notes[1].description
                == "\(database) has mode 0644, so other users can read it; it should be 0600")

        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
        for file in [database, database + "-wal"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        }
        let quiet = try ConfigurationLoader.load(
            environment: environment, overrides: ConfigurationOverrides(databasePath: database),
            defaultConfigPath: fixture.noFile)
        #expect(quiet.notes.isEmpty)
    }
}
