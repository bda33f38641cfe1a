import Foundation
import SQLiteStore
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// `db copy` carries identities and users without an email or password.
@Suite(.timeLimit(.minutes(1))) struct PostgresCopyIdentityTests {
    @Test("copies identities and passwordless users; idempotent; replacing drops the target's identities")
    func copyIdentities() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-copy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("t.sqlite").path))
        defer { sqlite.close() }
        let ada = try await Fixture.user(sqlite)
        try await sqlite.identities.link(
            provider: "google", subject: "g-ada", userID: ada.id, email: "ada@example.com", now: Fixture.at(1))
        let (anon, _) = try await sqlite.identities.createUser(
            id: "u-anon", email: nil, emailVerifiedAt: nil, role: "user", provider: "apple", subject: "a-anon",
            now: Fixture.at(2))
        let snapshot = try await sqlite.snapshot()
        #expect(snapshot.identities.map(\.subject) == ["g-ada", "a-anon"])

        let database = try await PostgresTestDatabase.make()
        let target = try await database.open()
        defer { target.close() }
        let report = try await target.copy(from: snapshot, replacing: false)
        #expect(report == CopyReport(users: 2, customerIDs: 0, sessions: 0, identities: 2))
        #expect(try await target.copy(from: snapshot, replacing: false) == report)
        #expect(try await target.users.list() == (try await sqlite.users.list()))
        #expect(try await target.identities.user(provider: "apple", subject: "a-anon") == anon)
        #expect(try await target.identities.user(provider: "google", subject: "g-ada") == ada)
        for user in [ada, anon] {
            #expect(
                try await target.identities.identities(userID: user.id)
                    == (try await sqlite.identities.identities(userID: user.id)))
        }
        // Replacing removes an identity the target had linked on its own.
        try await target.identities.link(
            provider: "apple", subject: "extra", userID: ada.id, email: nil, now: Fixture.at(3))
        #expect(try await target.copy(from: snapshot, replacing: true) == report)
        #expect(try await target.identities.user(provider: "apple", subject: "extra") == nil)
        #expect(try await database.query("SELECT count(*) FROM identities") == [["2"]])
        await database.remove()
    }
}
