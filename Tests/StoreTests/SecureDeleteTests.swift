import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// `secure_delete` (issue 33): a deleted account's email is overwritten in the file, so its bytes do not linger in
/// free space after a checkpoint; without the pragma they would (the control case shows the test can see them).
@Suite struct SecureDeleteTests {
    static let email = "zq-secret-7f3a@example.org"
    static let agent = "agent-4c1d9e-unique"

    /// Creates an account that leaves its email and user agent in every table that can hold them, deletes it, runs
    /// a truncating checkpoint, and answers whether the file or its WAL still holds either string.
    static func bytesLinger(secureDelete: Bool) async throws -> Bool {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        defer { database.close() }
        if !secureDelete {
            try database.withWriterConnection { (connection: Connection) throws(StoreError) in
                try connection.executeScript("PRAGMA secure_delete = OFF")
            }
        }
        let store = SQLiteStore(database: database)
        let user = try await store.userStore.create(email: email, passwordHash: Fixture.hash, now: Fixture.epoch)
        try await store.identities.link(
            provider: "apple", subject: "s", userID: user.id, email: email, now: Fixture.epoch)
        _ = try await store.sessions.create(
            userID: user.id, userAgent: agent, ip: "::1", now: Fixture.epoch, refreshTTL: .seconds(60),
            maxLifetime: .seconds(600), maxPerUser: 10, dpopThumbprint: nil)
        try await store.email.issueCode(
            EmailCode(
                purpose: .passwordReset, subject: email, hash: "h", userID: user.id, email: email,
                createdAt: Fixture.epoch, expiresAt: Fixture.epoch.addingTimeInterval(600)),
            message: OutboxMessage(
                id: "m", kind: "password_reset", recipient: email, body: [1, 2], createdAt: Fixture.epoch))
        // Other accounts keep the pages in use, as in a real file.
        for index in 0..<20 {
            try await store.userStore.create(
                email: "other-\(index)@example.com", passwordHash: Fixture.hash, now: Fixture.epoch)
        }
        try await store.users.deleteUser(userID: user.id, method: .selfService, now: Fixture.epoch)
        try database.withWriterConnection { (connection: Connection) throws(StoreError) in
            let result = try connection.queryOne("PRAGMA wal_checkpoint(TRUNCATE)")
            #expect(try result?.int64(0) == 0, "the checkpoint was not blocked")
        }
        var contents = try Data(contentsOf: URL(fileURLWithPath: temporary.path))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: temporary.path + "-wal")) { contents.append(wal) }
        return contents.range(of: Data(email.utf8)) != nil || contents.range(of: Data(agent.utf8)) != nil
    }

    @Test("a deleted account's email and user agent are not in the file or its WAL after a checkpoint")
    func deletedBytesAreGone() async throws {
        #expect(try await !Self.bytesLinger(secureDelete: true))
    }

    @Test("control: without secure_delete the deleted bytes stay in the file")
    func withoutSecureDeleteTheyStay() async throws {
        #expect(try await Self.bytesLinger(secureDelete: false))
    }
}
