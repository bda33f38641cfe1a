import Foundation
import SQLiteStore
import Store
import Testing
import TokenClientTesting

/// `tokenvend users set-tenant` (issue 30: tenants are the operator's, never the registering caller's), run as the
/// built executable on a SQLite file.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct UsersTenantCommandTests {
    static func tokenvend(_ arguments: [String], _ environment: [String: String], _ folder: TemporaryFolder)
        async throws -> KeyCommandTests.Run
    {
        try await KeyCommandTests.tokenvend(arguments, environment: environment, in: folder.url)
    }

    /// The tenant `users list` prints for each account, by id (`nil`: no `tenantId` member).
    static func tenants(_ environment: [String: String], _ folder: TemporaryFolder) async throws -> [String: String?] {
        let run = try await tokenvend(["users", "list"], environment, folder)
        #expect(run.status == 0)
        var tenants: [String: String?] = [:]
        for line in run.output.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            tenants.updateValue(object["tenantId"] as? String, forKey: try #require(object["id"] as? String))
        }
        return tenants
    }

    @Test("users set-tenant sets, replaces and clears a tenant by email or user id; only that account changes")
    func setAndClear() async throws {
        let folder = try TemporaryFolder()
        let environment = try await UsersIdentityCommandTests.prepare(folder)
        let set = try await Self.tokenvend(
            ["users", "set-tenant", "--account", "Ada@Example.com", "--tenant", "acme-corp"], environment, folder)
        #expect(set.status == 0 && set.output.contains("set tenant acme-corp for Ada@Example.com"), "\(set.error)")
        let anon = try await Self.tokenvend(
            ["users", "set-tenant", "--account", "u-anon", "--tenant", "globex"], environment, folder)
        #expect(anon.status == 0)
        let tenants = try await Self.tenants(environment, folder)
        #expect(tenants == ["u-ada": "acme-corp", "u-bob": nil, "u-anon": "globex"])

        let replaced = try await Self.tokenvend(
            ["users", "set-tenant", "--email", "ada@example.com", "--tenant", "initech"], environment, folder)
        #expect(replaced.status == 0)
        let cleared = try await Self.tokenvend(
            ["users", "set-tenant", "--account", "u-anon", "--clear"], environment, folder)
        #expect(cleared.status == 0 && cleared.output.contains("cleared the tenant of u-anon"))
        #expect(try await Self.tenants(environment, folder) == ["u-ada": "initech", "u-bob": nil, "u-anon": nil])

        // The store agrees.
        let store = try SQLiteStore(configuration: .init(path: try #require(environment["TOKENVEND_DATABASE_PATH"])))
        defer { store.close() }
        #expect(try await store.users.find(byID: "u-ada")?.tenantID == "initech")
        #expect(try await store.users.find(byID: "u-anon")?.tenantID == nil)
    }

    @Test("users set-tenant refuses an unknown account, an empty or long tenant, and both or neither of its options")
    func refusals() async throws {
        let folder = try TemporaryFolder()
        let environment = try await UsersIdentityCommandTests.prepare(folder)
        let unknown = try await Self.tokenvend(
            ["users", "set-tenant", "--account", "nobody@example.com", "--tenant", "t"], environment, folder)
        #expect(unknown.status == 1 && unknown.error.contains("no account"))
        for tenant in ["", String(repeating: "t", count: 129)] {
            let refused = try await Self.tokenvend(
                ["users", "set-tenant", "--account", "u-bob", "--tenant", tenant], environment, folder)
            #expect(refused.status == 1 && refused.error.contains("1 to 128 bytes"))
        }
        let both = try await Self.tokenvend(
            ["users", "set-tenant", "--account", "u-bob", "--tenant", "t", "--clear"], environment, folder)
        #expect(both.status != 0 && both.error.contains("exactly one of --tenant and --clear"))
        let neither = try await Self.tokenvend(["users", "set-tenant", "--account", "u-bob"], environment, folder)
        #expect(neither.status != 0 && neither.error.contains("exactly one of --tenant and --clear"))
        let noAccount = try await Self.tokenvend(["users", "set-tenant", "--tenant", "t"], environment, folder)
        #expect(noAccount.status != 0)
        // users add --tenant takes the same rule.
        var adding = environment
        adding["TOKENVEND_PASSWORD"] = "correct horse battery staple"
        let emptyTenant = try await Self.tokenvend(
            ["users", "add", "--email", "carol@example.com", "--tenant", ""], adding, folder)
        #expect(emptyTenant.status == 1 && emptyTenant.error.contains("1 to 128 bytes"), "\(emptyTenant.error)")
        #expect(try await Self.tenants(environment, folder) == ["u-ada": nil, "u-bob": nil, "u-anon": nil])
    }
}
