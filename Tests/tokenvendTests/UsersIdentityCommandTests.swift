import Foundation
import SQLiteStore
import Store
import Testing
import TokenClientTesting

/// `tokenvend users identities|unlink-identity`, and `users list` for accounts made from an identity, run as the
/// built executable on a SQLite file.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct UsersIdentityCommandTests {
    /// A database with ada (password, two identities), an account made from Apple without an email, and bob.
    static func prepare(_ folder: TemporaryFolder) async throws -> [String: String] {
        let path = folder.url.appending(path: "t.sqlite").path
        let store = try SQLiteStore(configuration: .init(path: path))
        defer { store.close() }
        let ada = try await store.users.create(
            id: "u-ada", email: "ada@example.com", passwordHash: "h", role: "user", tenantID: nil,
            emailVerifiedAt: nil, now: Date(timeIntervalSince1970: 1_800_000_000))
        _ = try await store.users.create(
            id: "u-bob", email: "bob@example.com", passwordHash: "h", role: "user", tenantID: nil,
            emailVerifiedAt: nil, now: Date(timeIntervalSince1970: 1_800_000_001))
        try await store.identities.link(
            provider: "apple", subject: "001.ada", userID: ada.id, email: "ada@example.com",
            now: Date(timeIntervalSince1970: 1_800_000_002))
        try await store.identities.link(
            provider: "google", subject: "1077", userID: ada.id, email: nil,
            now: Date(timeIntervalSince1970: 1_800_000_003))
        _ = try await store.identities.createUser(
            id: "u-anon", email: nil, emailVerifiedAt: nil, role: "user", provider: "apple", subject: "001.anon",
            now: Date(timeIntervalSince1970: 1_800_000_004))
        return ["TOKENVEND_DATABASE_PATH": path]
    }

    static func tokenvend(_ arguments: [String], _ environment: [String: String], _ folder: TemporaryFolder)
        async throws -> KeyCommandTests.Run
    {
        try await KeyCommandTests.tokenvend(arguments, environment: environment, in: folder.url)
    }

    @Test("users identities lists an account's identities, by email or by user id; unknown accounts exit 1")
    func listIdentities() async throws {
        let folder = try TemporaryFolder()
        let environment = try await Self.prepare(folder)
        let ada = try await Self.tokenvend(["users", "identities", "Ada@Example.com"], environment, folder)
        #expect(ada.status == 0)
        #expect(
            ada.output == """
                apple\t001.ada\tada@example.com\t2027-01-15T08:00:02Z
                google\t1077\t-\t2027-01-15T08:00:03Z

                """)
        let anon = try await Self.tokenvend(["users", "identities", "u-anon"], environment, folder)
        #expect(anon.status == 0 && anon.output == "apple\t001.anon\t-\t2027-01-15T08:00:04Z\n")
        let bob = try await Self.tokenvend(["users", "identities", "bob@example.com"], environment, folder)
        #expect(bob.status == 0 && bob.output.isEmpty)
        let unknown = try await Self.tokenvend(["users", "identities", "nobody@example.com"], environment, folder)
        #expect(unknown.status == 1 && unknown.error.contains("no account"))
        let invalid = try await Self.tokenvend(["users", "identities", "not an@email"], environment, folder)
        #expect(invalid.status == 1 && invalid.error.contains("not valid"))
    }

    @Test("users unlink-identity removes only the account's own identity; exit 1 otherwise")
    func unlink() async throws {
        let folder = try TemporaryFolder()
        let environment = try await Self.prepare(folder)
        // Another account's identity is not unlinked through ada.
        let other = try await Self.tokenvend(
            ["users", "unlink-identity", "ada@example.com", "apple", "001.anon"], environment, folder)
        #expect(other.status == 1 && other.error.contains("no identity"))
        let unknownAccount = try await Self.tokenvend(
            ["users", "unlink-identity", "nobody@example.com", "apple", "001.ada"], environment, folder)
        #expect(unknownAccount.status == 1)
        let done = try await Self.tokenvend(
            ["users", "unlink-identity", "ada@example.com", "apple", "001.ada"], environment, folder)
        #expect(done.status == 0 && done.output.contains("unlinked apple 001.ada"))
        let again = try await Self.tokenvend(
            ["users", "unlink-identity", "ada@example.com", "apple", "001.ada"], environment, folder)
        #expect(again.status == 1)
        let left = try await Self.tokenvend(["users", "identities", "ada@example.com"], environment, folder)
        #expect(left.output == "google\t1077\t-\t2027-01-15T08:00:03Z\n")
        // The store agrees, and the anonymous account's identity is untouched.
        let store = try SQLiteStore(configuration: .init(path: try #require(environment["TOKENVEND_DATABASE_PATH"])))
        defer { store.close() }
        #expect(try await store.identities.user(provider: "apple", subject: "001.ada") == nil)
        #expect(try await store.identities.user(provider: "apple", subject: "001.anon")?.id == "u-anon")
    }

    @Test("users list shows an account without an email as null and each account's identity providers")
    func list() async throws {
        let folder = try TemporaryFolder()
        let environment = try await Self.prepare(folder)
        let run = try await Self.tokenvend(["users", "list"], environment, folder)
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["id"] as? String } == ["u-ada", "u-bob", "u-anon"])
        #expect(objects[0]["identities"] as? [String] == ["apple", "google"])
        #expect(objects[1]["identities"] as? [String] == [])
        #expect(objects[2]["identities"] as? [String] == ["apple"])
        #expect(objects[2]["email"] is NSNull)
        #expect(lines[2].contains(#""email":null"#))
        #expect(objects[0]["email"] as? String == "ada@example.com")
    }

    @Test("users disable and set-customer-id work on an account without an email, by user id; --email still works")
    func disableWithoutEmail() async throws {
        let folder = try TemporaryFolder()
        let environment = try await Self.prepare(folder)
        let path = try #require(environment["TOKENVEND_DATABASE_PATH"])
        var sessions: [String] = []
        do {
            let store = try SQLiteStore(configuration: .init(path: path))
            defer { store.close() }
            for _ in 0..<2 {
                sessions.append(
                    try await store.sessions.create(
                        userID: "u-anon", userAgent: nil, ip: nil, now: Date(), refreshTTL: .seconds(3600),
                        maxLifetime: .seconds(7200), maxPerUser: 10, dpopThumbprint: nil
                    ).session.id)
            }
        }
        let set = try await Self.tokenvend(
            ["users", "set-customer-id", "--account", "u-anon", "--key", "crm", "--value", "C-9"], environment, folder)
        #expect(set.status == 0 && set.output.contains("set crm for u-anon"))
        let disabled = try await Self.tokenvend(["users", "disable", "--account", "u-anon"], environment, folder)
        #expect(disabled.status == 0 && disabled.output.contains("2 session(s) revoked"))
        let byEmail = try await Self.tokenvend(
            ["users", "disable", "--account", "bob@example.com"], environment, folder)
        #expect(byEmail.status == 0)
        let legacy = try await Self.tokenvend(["users", "disable", "--email", "ada@example.com"], environment, folder)
        #expect(legacy.status == 0 && legacy.output.contains("disabled ada@example.com"))
        let notAnEmail = try await Self.tokenvend(["users", "disable", "--email", "u-anon"], environment, folder)
        #expect(notAnEmail.status == 1 && notAnEmail.error.contains("not valid"))
        let unknown = try await Self.tokenvend(["users", "disable", "--account", "u-nobody"], environment, folder)
        #expect(unknown.status == 1 && unknown.error.contains("no account"))
        let both = try await Self.tokenvend(
            ["users", "disable", "--account", "u-anon", "--email", "ada@example.com"], environment, folder)
        #expect(both.status != 0)
        let store = try SQLiteStore(configuration: .init(path: path))
        defer { store.close() }
        let anon = try #require(try await store.users.find(byID: "u-anon"))
        #expect(anon.isDisabled)
        #expect(try await store.users.customerIDs(userID: "u-anon", emailAsRegistered: false)["crm"] == "C-9")
        for id in sessions {
            #expect(try await store.sessions.find(sessionID: id)?.revokedAt != nil)
        }
        #expect(try await store.users.find(byID: "u-bob")?.isDisabled == true)
        #expect(try await store.users.find(byID: "u-ada")?.isDisabled == true)
    }
}
