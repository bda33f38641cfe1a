import Foundation
import Logging
import SQLiteStore
import Store
import Testing

@testable import TokenService

/// The session purger's share of passkeys (issue 36): expired ceremony challenges go, live ones and the passkeys
/// stay.
@Suite(.timeLimit(.minutes(1)))
struct PasskeyChallengePurgeTests {
    @Test("the session purger deletes expired passkey challenges and keeps live ones and the passkeys")
    func purgerPrunesChallenges() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-purge-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(configuration: .init(path: folder.appending(path: "t.sqlite").path))
        defer { store.close() }
        let passkeys = store.passkeys
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let expired = PasskeyChallenge(
            hash: String(repeating: "6", count: 64), ceremony: .authentication, expiresAt: now.addingTimeInterval(-1))
        let live = PasskeyChallenge(
            hash: String(repeating: "7", count: 64), ceremony: .signup, userHandle: "aGFuZGxl",
            email: "ada@example.com", expiresAt: now.addingTimeInterval(300))
        let first = try await passkeys.issueChallenge(expired, maxPending: 10, now: now.addingTimeInterval(-301))
        let second = try await passkeys.issueChallenge(live, maxPending: 10, now: now)
        let user = User(
            id: "u-1", email: nil, passwordHash: nil, role: "user", tenantID: nil, disabledAt: nil,
            createdAt: now.addingTimeInterval(-86_400))
        let passkey = Passkey(
            credentialID: "cred", userID: user.id, publicKey: [1, 2, 3], algorithm: -7, signCount: 0,
            backupEligible: true, backedUp: true, name: "Passkey", createdAt: user.createdAt)
        try await passkeys.createUser(user, userHandle: "h", passkey: passkey)
        #expect(first && second)
        let purger = SessionPurger(
            sessions: store.sessions, passkeys: passkeys,
            logger: Logger(label: "test.purge", factory: { _ in SwiftLogNoOpLogHandler() }), now: { now })
        _ = await purger.purgeNow()
        await purger.stop()
        // The purger deleted the expired challenge (nothing is left to prune) and kept the live one and the passkey.
        #expect(try await passkeys.pruneChallenges(expiredBy: now) == 0)
        #expect(try await passkeys.consumeChallenge(hash: live.hash, now: now) == live)
        #expect(try await passkeys.passkeys(userID: user.id) == [passkey])
    }
}
