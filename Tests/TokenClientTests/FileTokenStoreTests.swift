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

    @Test("a second lock on the same file waits until the first is released")
    func secondLockWaits() async throws {
        defer { cleanUp() }
        let first = try await FileTokenStore(url: file).lock()
        let acquired = Locked(false)
        let waiter = Task {
            let second = try await FileTokenStore(url: file).lock()
            acquired.withLock { $0 = true }
            second.release()
        }
        try await Task.sleep(for: .milliseconds(150))
        #expect(!acquired.withLock { $0 })
        first.release()
        try await waiter.value
        #expect(acquired.withLock { $0 })
    }

    @Test("the lock is released when its last reference goes away")
    func releasedOnDeinit() async throws {
        defer { cleanUp() }
        var held: TokenStoreLock? = try await FileTokenStore(url: file).lock()
        await #expect(throws: TokenClientError.self) { try await FileTokenStore(url: file, lockTimeout: 0.05).lock() }
        #expect(held != nil)
        held = nil
        let again = try await FileTokenStore(url: file, lockTimeout: 0.05).lock()
        again.release()
    }

    @Test("waiting longer than lockTimeout throws a storage error saying it timed out")
    func lockTimesOut() async throws {
        defer { cleanUp() }
        let held = try await FileTokenStore(url: file).lock()
        defer { held.release() }
        let start = ContinuousClock.now
        let error = try await #require(throws: TokenClientError.self) {
            try await FileTokenStore(url: file, lockTimeout: 0.2).lock()
        }
        #expect(ContinuousClock.now - start >= .milliseconds(200))
        guard case .storage(let reason) = error else {
            Issue.record("expected a storage error, got \(error)")
            return
        }
        #expect(reason.contains("lock") && reason.contains("timed out"))
    }

    @Test("another process holding the lock (flock(1)) delays lock() until it exits")
    func otherProcessHoldsLock() async throws {
        defer { cleanUp() }
        let flock = "/usr/bin/flock"
        try #require(FileManager.default.isExecutableFile(atPath: flock), "util-linux flock is missing")
        let marker = directory.appending(path: "holding")
        let holder = Process()
        holder.executableURL = URL(filePath: flock)
        // flock(1) takes the lock, then runs the shell, which says so by creating the marker and sleeps 0.5 s.
        holder.arguments = [file.path + ".lock", "/bin/sh", "-c", "touch \"$0\" && sleep 0.5", marker.path]
        try holder.run()
        let appeared = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: marker.path), ContinuousClock.now < appeared {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(FileManager.default.fileExists(atPath: marker.path))
        let start = ContinuousClock.now
        let lock = try await FileTokenStore(url: file).lock()
        let waited = ContinuousClock.now - start
        lock.release()
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0)
        #expect(waited >= .milliseconds(300))
    }

    @Test("the lock file beside the tokens is mode 0600")
    func lockFilePrivate() async throws {
        defer { cleanUp() }
        let lock = try await FileTokenStore(url: file).lock()
        defer { lock.release() }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path + ".lock")
        #expect(try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777 == 0o600)
    }

    @Test("a symbolic link at the lock file's path is refused, not followed")
    func lockFileSymlinkRefused() async throws {
        defer { cleanUp() }
        let target = directory.appending(path: "elsewhere")
        try FileManager.default.createSymbolicLink(atPath: file.path + ".lock", withDestinationPath: target.path)
        await #expect(throws: TokenClientError.self) { try await FileTokenStore(url: file).lock() }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
