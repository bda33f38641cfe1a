import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

/// The stores of a DPoP key, and the token type in stored tokens.
@Suite("DPoP key stores", .timeLimit(.minutes(1)))
struct DPoPKeyStoreTests {
    static let material = DPoPKeyMaterial(kind: "p256", data: Data([4, 1, 2, 3]))
    static let tokens = StoredTokens(accessToken: "a", refreshToken: "r", tokenType: "DPoP")

    @Test("tokens stored before DPoP read as Bearer; the token type is kept")
    func tokenTypeDecoding() throws {
        let old = Data(#"{"accessToken":"a","refreshToken":"r"}"#.utf8)
        #expect(try JSONDecoder().decode(StoredTokens.self, from: old).tokenType == "Bearer")
        let again = try JSONDecoder().decode(StoredTokens.self, from: try JSONEncoder().encode(Self.tokens))
        #expect(again.tokenType == "DPoP" && again.isDPoPBound)
    }

    @Test("the session file keeps the key beside the tokens (0600); deleteKey keeps the tokens, clear removes both")
    func sessionFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appending(path: "session.json")
        let store = FileTokenStore(url: file)
        try store.saveKey(Self.material)
        #expect(try store.load() == nil)
        #expect(try folder.mode(of: file) == 0o600)
        try store.save(Self.tokens)
        #expect(try store.loadKey() == Self.material)
        #expect(try store.load() == Self.tokens)
        try store.saveKey(DPoPKeyMaterial(kind: "ed25519", data: Data([9])))
        #expect(try store.load() == Self.tokens)
        #expect(try folder.mode(of: file) == 0o600)
        try store.deleteKey()
        #expect(try store.loadKey() == nil)
        #expect(try store.load() == Self.tokens)
        try store.saveKey(Self.material)
        try store.clear()
        #expect(try store.loadKey() == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a key alone is deleted with its file")
    func keyOnlyFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appending(path: "session.json")
        let store = FileTokenStore(url: file)
        try store.saveKey(Self.material)
        try store.deleteKey()
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("the Keychain store keeps the material in its item, and reports a locked Keychain as storageLocked")
    func keychain() throws {
        let keychain = FakeKeychain()
        let store = KeychainDPoPKeyStore(backend: keychain)
        #expect(try store.loadKey() == nil)
        try store.saveKey(Self.material)
        #expect(try store.loadKey() == Self.material)
        #expect(keychain.accessibility(of: store.item) == .afterFirstUnlockThisDeviceOnly)
        keychain.lock()
        #expect(throws: TokenClientError.storageLocked) { try store.loadKey() }
        keychain.unlock()
        try store.deleteKey()
        try store.deleteKey()
        #expect(try store.loadKey() == nil)
    }

    @Test("a session whose Keychain is locked cannot sign: storageLocked, and no key is generated")
    func lockedKeychainSession() async throws {
        let keychain = FakeKeychain()
        let server = FakeAuthServer()
        let session = AuthSession(
            baseURL: DPoPFixture.baseURL, transport: server,
            dpop: DPoPConfiguration(keyStore: KeychainDPoPKeyStore(backend: keychain), keyKind: .softwareP256))
        keychain.lock()
        await #expect(throws: TokenClientError.storageLocked) {
            try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
        }
        #expect(server.requests.isEmpty)
        keychain.unlock()
        try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
        #expect(server.proofs.count == 1)
    }
}
