import Foundation
import PostgresStore
import PostgresTesting
import SQLiteStore
import Store
import Testing
import TokenClientTesting

/// `tokenvend integrity keys list|delete`, run as the built executable on a store filled through the store API:
/// SQLite, and one PostgreSQL schema (the PostgreSQL case needs `scripts/with-postgres.sh`, as `make test` runs it).
@Suite(.timeLimit(.minutes(2)), .serialized)
struct IntegrityKeysCommandTests {
    static let created = Date(timeIntervalSince1970: 1_800_000_000)

    /// Two keys: `AAAA…` (production, asserted up to 7) and `BBBB+/…` (development, never asserted).
    static let keys = [
        AttestedKey(
            keyID: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", publicKey: [0x04] + Array(repeating: 1, count: 64),
            counter: 0, appID: "ABCDE12345.com.example.app", environment: .production, createdAt: created),
        AttestedKey(
            keyID: "BBBB+/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=", publicKey: [0x04] + Array(repeating: 2, count: 64),
            counter: 0, appID: "ABCDE12345.com.example.app", environment: .development,
            createdAt: created.addingTimeInterval(60)),
    ]

    /// Stores `keys` and one assertion (counter 7) of the first.
    static func fill(_ integrity: any IntegrityStoring) async throws {
        for key in keys { #expect(try await integrity.insertAttestedKey(key)) }
        #expect(try await integrity.advanceCounter(keyID: keys[0].keyID, to: 7, now: created.addingTimeInterval(120)))
    }

    /// list (text and JSON), delete of an unknown key (exit 1), delete, list again: on the store `environment`
    /// names; then `remaining` reads what the store holds.
    static func listAndDelete(
        _ environment: [String: String], _ folder: TemporaryFolder, remaining: () async throws -> [AttestedKey]
    ) async throws {
        let list = try await KeyCommandTests.tokenvend(
            ["integrity", "keys", "list"], environment: environment, in: folder.url)
        #expect(list.status == 0)
        #expect(
            list.output == """
                \(keys[0].keyID)\tABCDE12345.com.example.app\tproduction\t7\t2027-01-15T08:00:00Z\t2027-01-15T08:02:00Z
                \(keys[1].keyID)\tABCDE12345.com.example.app\tdevelopment\t0\t2027-01-15T08:01:00Z\t-

                """)
        let json = try await KeyCommandTests.tokenvend(
            ["integrity", "keys", "list", "--json"], environment: environment, in: folder.url)
        #expect(json.status == 0)
        let lines = json.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["keyId"] as? String } == keys.map(\.keyID))
        #expect(objects.map { $0["appId"] as? String } == keys.map(\.appID))
        #expect(objects.map { $0["environment"] as? String } == ["production", "development"])
        #expect(objects.map { $0["counter"] as? Int } == [7, 0])
        #expect(objects.map { $0["createdAt"] as? String } == ["2027-01-15T08:00:00Z", "2027-01-15T08:01:00Z"])
        #expect(objects[0]["lastAssertedAt"] as? String == "2027-01-15T08:02:00Z")
        #expect(objects[1]["lastAssertedAt"] is NSNull)
        #expect(Set(objects[0].keys) == ["keyId", "appId", "environment", "counter", "createdAt", "lastAssertedAt"])

        let unknown = try await KeyCommandTests.tokenvend(
            ["integrity", "keys", "delete", "CCCC"], environment: environment, in: folder.url)
        #expect(unknown.status == 1)
        #expect(unknown.output.isEmpty)
        #expect(unknown.error == "tokenvend integrity keys delete: no App Attest key CCCC\n")
        let deleted = try await KeyCommandTests.tokenvend(
            ["integrity", "keys", "delete", keys[1].keyID], environment: environment, in: folder.url)
        #expect(deleted.status == 0)
        #expect(deleted.output == "deleted App Attest key \(keys[1].keyID)\n")
        let again = try await KeyCommandTests.tokenvend(
            ["integrity", "keys", "delete", keys[1].keyID], environment: environment, in: folder.url)
        #expect(again.status == 1)
        let after = try await KeyCommandTests.tokenvend(
            ["integrity", "keys", "list"], environment: environment, in: folder.url)
        #expect(after.status == 0 && after.output.split(separator: "\n").map { $0.hasPrefix(keys[0].keyID) } == [true])
        let missing = try await KeyCommandTests.tokenvend(
            ["integrity", "keys", "delete"], environment: environment, in: folder.url)
        #expect(missing.status == 2)

        let left = try await remaining()
        #expect(left.map(\.keyID) == [keys[0].keyID])
        #expect(left.first?.counter == 7)
    }

    @Test("on SQLite: keys list prints every key (text and --json), delete removes one, an unknown key exits 1")
    func sqlite() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appending(path: "t.sqlite").path
        let environment = ["TOKENVEND_DATABASE_PATH": path]
        let empty = try await KeyCommandTests.tokenvend(
            ["integrity", "keys", "list"], environment: environment, in: folder.url)
        #expect(empty.status == 0 && empty.output.isEmpty)
        do {
            let store = try SQLiteStore(configuration: .init(path: path))
            defer { store.close() }
            try await Self.fill(store.integrity)
        }
        try await Self.listAndDelete(environment, folder) {
            let store = try SQLiteStore(configuration: .init(path: path))
            defer { store.close() }
            return try await store.integrity.attestedKeys()
        }
    }

    @Test("on PostgreSQL: keys list and delete act on the shared database")
    func postgres() async throws {
        let schema = try PostgresTestSchema.make()
        defer { schema.remove() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        do {
            // The caller's clock, so that the assertion time is the fixture's, not the database's.
            let store = try await PostgresStore(configuration: .init(url: schema.url, clock: .caller))
            defer { store.close() }
            try await Self.fill(store.integrity)
        }
        let environment = ["TOKENVEND_DATABASE_URL": schema.url, "TOKENVEND_DATABASE_PATH": ""]
        try await Self.listAndDelete(environment, folder) {
            let store = try await PostgresStore(configuration: .init(url: schema.url))
            defer { store.close() }
            return try await store.integrity.attestedKeys()
        }
    }

    @Test("keys list on a store that cannot be opened exits 1 with one line")
    func unreadableStore() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = ["TOKENVEND_DATABASE_URL": "postgres://tokenvend:pa55word@127.0.0.1:1/x"]
        let run = try await KeyCommandTests.tokenvend(
            ["integrity", "keys", "list"], environment: environment, in: folder.url)
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("tokenvend integrity keys list: "))
        #expect(run.error.split(separator: "\n").count == 1)
        #expect(!run.error.contains("pa55word"))
    }
}
