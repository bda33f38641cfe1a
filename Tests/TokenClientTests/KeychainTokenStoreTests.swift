import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("KeychainTokenStore")
struct KeychainTokenStoreTests {
    let keychain = FakeKeychain()
    let item = KeychainItem(service: "tokenvend", account: "session")
    let tokens = StoredTokens(
        accessToken: "access-1",
        refreshToken: "refresh-1",
        accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_900),
        user: User(id: "u-1", email: "ada@example.com")
    )
    let rotated = StoredTokens(accessToken: "access-2", refreshToken: "refresh-2")

    var store: KeychainTokenStore { KeychainTokenStore(backend: keychain) }

    /// Whether any delete precedes an add in `calls`.
    func deleteBeforeAdd(_ calls: [FakeKeychain.Call]) -> Bool {
        var deleted = false
        for call in calls {
            if case .delete = call { deleted = true }
            if case .add = call, deleted { return true }
        }
        return false
    }

    @Test("a missing item loads as nil")
    func missingIsNil() throws {
        #expect(try store.load() == nil)
        #expect(keychain.calls == [.copyData(item)])
    }

    @Test("saved tokens load back equal, from the item tokenvend/session")
    func roundTrip() throws {
        try store.save(tokens)
        #expect(try store.load() == tokens)
        #expect(keychain.data(of: item) != nil)
    }

    @Test("the item holds the same JSON bytes FileTokenStore writes")
    func sameJSONAsFileStore() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appending(path: "tokens.json")
        try FileTokenStore(url: file).save(tokens)
        try store.save(tokens)
        #expect(keychain.data(of: item) == (try Data(contentsOf: file)))
    }

    @Test("the first save adds the item, the second updates it, and nothing is ever deleted")
    func updateOrAdd() throws {
        try store.save(tokens)
        #expect(keychain.calls == [.update(item), .add(item, .afterFirstUnlockThisDeviceOnly)])
        try store.save(rotated)
        #expect(
            keychain.calls == [.update(item), .add(item, .afterFirstUnlockThisDeviceOnly), .update(item)])
        #expect(try store.load() == rotated)
    }

    @Test("an item added by another process between update and add is updated: the save wins, no delete")
    func duplicateRaceConverges() throws {
        keychain.addFindsItemAddedMeanwhile(holding: try #require("{\"other\":true}".data(using: .utf8)))
        try store.save(tokens)
        #expect(keychain.calls == [.update(item), .add(item, .afterFirstUnlockThisDeviceOnly), .update(item)])
        #expect(!deleteBeforeAdd(keychain.calls))
        #expect(try store.load() == tokens)
    }

    @Test("a locked keychain makes load throw storageLocked, and once unlocked it loads the tokens")
    func lockedLoad() throws {
        try store.save(tokens)
        keychain.lock()
        #expect(throws: TokenClientError.storageLocked) { try store.load() }
        keychain.unlock()
        #expect(try store.load() == tokens)
    }

    @Test("a locked keychain makes save throw storageLocked and leaves the item as it was")
    func lockedSave() throws {
        try store.save(tokens)
        keychain.lock()
        #expect(throws: TokenClientError.storageLocked) { try store.save(rotated) }
        #expect(throws: TokenClientError.storageLocked) { try store.clear() }
        keychain.unlock()
        #expect(try store.load() == tokens)
        #expect(!deleteBeforeAdd(keychain.calls))
    }

    @Test("clear deletes the item, and clearing a missing item succeeds")
    func clear() throws {
        try store.clear()
        try store.save(tokens)
        try store.clear()
        #expect(keychain.data(of: item) == nil)
        #expect(try store.load() == nil)
        try store.clear()
    }

    @Test("data that is not stored tokens is a storage error, not nil")
    func corruptData() throws {
        keychain.setData(Data("not json".utf8), of: item)
        let error = try #require(throws: TokenClientError.self) { try store.load() }
        guard case .storage(let reason) = error else {
            Issue.record("expected a storage error, got \(error)")
            return
        }
        #expect(reason.contains("tokenvend/session"))
        #expect(!reason.contains("not json"))
    }

    @Test("any other status is a storage error naming the OSStatus, for load, save and clear")
    func otherStatusNamed() throws {
        let missingEntitlement: Int32 = -34018
        keychain.failNextCall(with: missingEntitlement)
        #expect(throws: TokenClientError.storage("cannot read keychain item tokenvend/session: OSStatus -34018")) {
            try store.load()
        }
        keychain.failNextCall(with: missingEntitlement)
        #expect(throws: TokenClientError.storage("cannot write keychain item tokenvend/session: OSStatus -34018")) {
            try store.save(tokens)
        }
        #expect(keychain.calls.last == .update(item))
        keychain.failNextCall(with: missingEntitlement)
        #expect(throws: TokenClientError.storage("cannot delete keychain item tokenvend/session: OSStatus -34018")) {
            try store.clear()
        }
    }

    @Test("the access group and the accessibility reach the backend")
    func accessGroupAndAccessibility() throws {
        let shared = KeychainTokenStore(
            service: "com.example.app", account: "ada", accessGroup: "ABCDE12345.com.example.shared",
            accessibility: .whenUnlocked, backend: keychain)
        let sharedItem = KeychainItem(
            service: "com.example.app", account: "ada", accessGroup: "ABCDE12345.com.example.shared")
        #expect(shared.item == sharedItem)
        try shared.save(tokens)
        #expect(keychain.calls == [.update(sharedItem), .add(sharedItem, .whenUnlocked)])
        #expect(keychain.accessibility(of: sharedItem) == .whenUnlocked)
        #expect(keychain.data(of: item) == nil)
        #expect(try shared.load() == tokens)
    }
}
