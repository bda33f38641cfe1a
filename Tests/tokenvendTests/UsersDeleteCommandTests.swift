import Foundation
import SQLiteStore
import Store
import Testing
import TokenClientTesting

/// `tokenvend users delete`, run as the built executable on a SQLite file.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct UsersDeleteCommandTests {
    /// ada (password, an Apple identity holding a sealed refresh token, a session), an account made from Apple
    /// without an email, and bob.
    static func prepare(_ folder: TemporaryFolder) async throws -> (environment: [String: String], path: String) {
        let path = folder.url.appending(path: "t.sqlite").path
        let store = try SQLiteStore(configuration: .init(path: path))
        defer { store.close() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let ada = try await store.users.create(
            id: "u-ada", email: "ada@example.com", passwordHash: "h", role: "user", tenantID: nil,
            emailVerifiedAt: nil, now: now)
        _ = try await store.users.create(
            id: "u-bob", email: "bob@example.com", passwordHash: "h", role: "user", tenantID: nil,
            emailVerifiedAt: nil, now: now)
        try await store.identities.link(
            provider: "apple", subject: "001.ada", userID: ada.id, email: "ada@example.com", now: now)
        let sealed = try await store.identities.setSealedRefreshToken(
            provider: "apple", subject: "001.ada", userID: ada.id, sealed: [1, 2, 3, 4])
        #expect(sealed)
        _ = try await store.identities.createUser(
            id: "u-anon", email: nil, emailVerifiedAt: nil, role: "user", provider: "apple", subject: "001.anon",
            now: now)
        return (["TOKENVEND_DATABASE_PATH": path], path)
    }

    @Test("users delete --account EMAIL deletes the account, prints the record, queues the Apple revocation")
    func deleteByEmail() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (environment, path) = try await Self.prepare(folder)
        let run = try await UsersIdentityCommandTests.tokenvend(
            ["users", "delete", "--account", "Ada@Example.com"], environment, folder)
        #expect(run.status == 0, "\(run.error)")
        let line = try #require(run.output.split(separator: "\n").first)
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(record["userId"] as? String == "u-ada")
        #expect(record["method"] as? String == "operator")
        #expect(record["revocationsQueued"] as? Int == 1)
        #expect((record["deletedAt"] as? String).flatMap { try? Date.ISO8601FormatStyle().parse($0) } != nil)
        #expect(!run.output.contains("ada@example.com"))

        let store = try SQLiteStore(configuration: .init(path: path))
        defer { store.close() }
        #expect(try await store.users.find(byID: "u-ada") == nil)
        #expect(try await store.identities.identities(userID: "u-ada").isEmpty)
        #expect(try await store.users.deletedAccounts().map(\.userID) == ["u-ada"])
        #expect(try await store.users.deletedAccounts().map(\.method) == [.operator])
        let outbox = try await store.email.listOutbox()
        #expect(outbox.map(\.kind) == [OutboxJobKind.providerTokenRevocation])
        #expect(outbox.map(\.recipient) == ["apple"])
        #expect(try await store.users.find(byID: "u-bob") != nil)

        // Gone: a second deletion is an unknown account.
        let again = try await UsersIdentityCommandTests.tokenvend(
            ["users", "delete", "--account", "ada@example.com"], environment, folder)
        #expect(again.status == 1 && again.error.contains("no account"))
    }

    @Test("users delete takes a user id for an account without an email; nothing queued without a sealed token")
    func deleteByID() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (environment, path) = try await Self.prepare(folder)
        let run = try await UsersIdentityCommandTests.tokenvend(
            ["users", "delete", "--account", "u-anon"], environment, folder)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains(#""revocationsQueued":0"#) && run.output.contains(#""userId":"u-anon""#))
        let store = try SQLiteStore(configuration: .init(path: path))
        defer { store.close() }
        #expect(try await store.email.listOutbox().isEmpty)
        #expect(try await store.identities.identities(userID: "u-anon").isEmpty)
    }

    @Test("users delete refuses unknown accounts (1), an --email that is not one, and no account option (2)")
    func refusals() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (environment, _) = try await Self.prepare(folder)
        let unknown = try await UsersIdentityCommandTests.tokenvend(
            ["users", "delete", "--account", "nobody@example.com"], environment, folder)
        #expect(unknown.status == 1 && unknown.error.contains("no account"))
        let notEmail = try await UsersIdentityCommandTests.tokenvend(
            ["users", "delete", "--email", "u-bob"], environment, folder)
        #expect(notEmail.status == 1 && notEmail.error.contains("not valid"))
        let none = try await UsersIdentityCommandTests.tokenvend(["users", "delete"], environment, folder)
        #expect(none.status == 2)
        let help = try await UsersIdentityCommandTests.tokenvend(["users", "delete", "--help"], environment, folder)
        #expect(help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("within 30 s"))
    }
}
