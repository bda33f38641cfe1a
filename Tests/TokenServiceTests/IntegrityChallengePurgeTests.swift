import Foundation
import Logging
import SQLiteStore
import Store
import Testing

@testable import TokenService

/// The session purger's share of app integrity (issue 34): expired challenges go, live ones and keys stay.
@Suite(.timeLimit(.minutes(1)))
struct IntegrityChallengePurgeTests {
    @Test("the session purger deletes expired integrity challenges and keeps live ones and the App Attest keys")
    func purgerPrunesChallenges() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-purge-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(configuration: .init(path: folder.appending(path: "t.sqlite").path))
        defer { store.close() }
        let integrity = store.integrity
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let expired = String(repeating: "6", count: 64)
        let live = String(repeating: "7", count: 64)
        let first = try await integrity.issueChallenge(
            hash: expired, expiresAt: now.addingTimeInterval(-1), maxPending: 10, now: now.addingTimeInterval(-301))
        let second = try await integrity.issueChallenge(
            hash: live, expiresAt: now.addingTimeInterval(300), maxPending: 10, now: now)
        let key = AttestedKey(
            keyID: "k", publicKey: [4] + [UInt8](repeating: 9, count: 64), counter: 0, appID: "ABCDE12345.a.b",
            environment: .production, createdAt: now.addingTimeInterval(-86_400 * 400))
        let inserted = try await integrity.insertAttestedKey(key)
        #expect(first && second && inserted)
        let purger = SessionPurger(
            sessions: store.sessions, integrity: integrity,
            logger: Logger(label: "test.purge", factory: { _ in SwiftLogNoOpLogHandler() }), now: { now })
        _ = await purger.purgeNow()
        await purger.stop()
        // The purger deleted the expired challenge (nothing is left to prune) and kept the live one and the key.
        #expect(try await integrity.pruneChallenges(expiredBy: now) == 0)
        #expect(try await integrity.consumeChallenge(hash: live, now: now))
        #expect(try await integrity.attestedKeys() == [key])
    }
}
