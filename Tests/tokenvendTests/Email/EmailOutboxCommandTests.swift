import Foundation
import SQLiteStore
import Store
import Testing
import TokenClientTesting

/// `tokenvend email outbox`, run as the built executable on a SQLite store filled through the store API.
@Suite(.timeLimit(.minutes(1)))
struct EmailOutboxCommandTests {
    @Test("email outbox prints pending and given-up rows, tab-separated, with no body; an empty outbox prints nothing")
    func listsRows() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appending(path: "t.sqlite").path
        let environment = ["TOKENVEND_DATABASE_PATH": path]
        let empty = try await KeyCommandTests.tokenvend(["email", "outbox"], environment: environment, in: folder.url)
        #expect(empty.status == 0)
        #expect(empty.output.isEmpty)

        let created = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try SQLiteStore(configuration: .init(path: path))
        let secret = Array("sealed body with code 493817".utf8)
        try await store.email.enqueue(
            OutboxMessage(
                id: "row-1", kind: "password_reset", recipient: "ada@example.com", body: secret,
                createdAt: created))
        try await store.email.enqueue(
            OutboxMessage(
                id: "row-2", kind: "verification", recipient: "bob@example.com", body: secret,
                createdAt: created.addingTimeInterval(60)))
        try await store.email.retryOutbox(
            id: "row-1", nextAttemptAt: created.addingTimeInterval(120), lastError: "connection refused\tby host")
        try await store.email.failOutbox(
            id: "row-2", lastError: "550 no such user", now: created.addingTimeInterval(86_400))
        store.close()

        let run = try await KeyCommandTests.tokenvend(["email", "outbox"], environment: environment, in: folder.url)
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(lines.count == 2)
        #expect(
            lines.first.map { $0.map(String.init) } == [
                "row-1", "password_reset", "ada@example.com", "1", "2027-01-15T08:00:00Z", "2027-01-15T08:02:00Z",
                "-", "connection refused by host",
            ])
        #expect(
            lines.last.map { $0.map(String.init) } == [
                "row-2", "verification", "bob@example.com", "1", "2027-01-15T08:01:00Z", "-",
                "2027-01-16T08:00:00Z", "550 no such user",
            ])
        #expect(!run.output.contains("493817"))
        #expect(!run.output.contains("sealed body"))
    }

    @Test("email outbox on a store that cannot be opened exits 1 with one line")
    func unreadableStore() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blocker = folder.url.appending(path: "file")
        try Data().write(to: blocker)
        let run = try await KeyCommandTests.tokenvend(
            ["email", "outbox"], environment: ["TOKENVEND_DATABASE_PATH": blocker.path + "/db.sqlite"],
            in: folder.url)
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("tokenvend email outbox: "))
    }
}
