import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("FileTokenStore")
struct FileTokenStoreTests {
    let directory: URL
    let file: URL
    let tokens = StoredTokens(
        accessToken: "access-1",
        refreshToken: "refresh-1",
        accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_900),
        user: User(id: "u-1", email: "ada@example.com")
    )

    init() throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "tokenclient-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appending(path: "tokens.json")
    }

    func permissions() throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }

    @Test("saved tokens are in a 0600 file and load back equal")
    func roundTripPrivate() throws {
        defer { cleanUp() }
        let store = FileTokenStore(url: file)
        #expect(try store.load() == nil)
        try store.save(tokens)
        #expect(try permissions() == 0o600)
        #expect(try store.load() == tokens)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tokens.json"])
    }

    @Test("saving over a world-readable file leaves a 0600 file")
    func replacesLoosePermissions() throws {
        defer { cleanUp() }
        #expect(
            FileManager.default.createFile(
                atPath: file.path, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o644]))
        let store = FileTokenStore(url: file)
        try store.save(tokens)
        #expect(try permissions() == 0o600)
        #expect(try store.load() == tokens)
    }

    @Test("clear removes the file and is idempotent")
    func clearRemoves() throws {
        defer { cleanUp() }
        let store = FileTokenStore(url: file)
        try store.save(tokens)
        try store.clear()
        #expect(!FileManager.default.fileExists(atPath: file.path))
        try store.clear()
        #expect(try store.load() == nil)
    }

    @Test("a corrupt file is a storage error")
    func corruptFile() throws {
        defer { cleanUp() }
        try Data("not json".utf8).write(to: file)
        let store = FileTokenStore(url: file)
        #expect(throws: TokenClientError.self) { try store.load() }
    }

    @Test("a session persists through the file store")
    func sessionUsesFileStore() async throws {
        defer { cleanUp() }
        let store = FileTokenStore(url: file)
        let baseURL = try #require(URL(string: "https://api.example.test/"))
        let session = AuthSession(baseURL: baseURL, transport: FakeAuthServer(), store: store)
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        #expect(try store.load()?.refreshToken == "refresh-1")
        #expect(try permissions() == 0o600)
    }
}
