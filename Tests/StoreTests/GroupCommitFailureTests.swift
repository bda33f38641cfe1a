import Dispatch
import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Failures of a whole group commit: a failing `COMMIT`, a full disk, a lock held elsewhere, a stale writer.
@Suite(.timeLimit(.minutes(1))) struct GroupCommitFailureTests {
    /// Queues `bodies` in order behind a held writer, releases it, and returns each write's result.
    static func group(
        _ database: Database, _ bodies: [@Sendable (Connection) throws(StoreError) -> Void]
    ) async -> [Result<Void, StoreError>] {
        let hold = await WriterHold.hold(database)
        var tasks: [Task<Void, any Error>] = []
        for (index, body) in bodies.enumerated() {
            tasks.append(await WriterHold.enqueue(database, queued: index + 1) { try await database.write(body) })
        }
        await hold.release()
        var results: [Result<Void, StoreError>] = []
        for task in tasks {
            do {
                try await task.value
                results.append(.success(()))
            } catch let error as StoreError {
                results.append(.failure(error))
            } catch {
                results.append(.failure(.misuse("unexpected \(error)")))
            }
        }
        return results
    }

    static func insert(_ email: String, hashLength: Int = 1) -> @Sendable (Connection) throws(StoreError) -> Void {
        { (connection: Connection) throws(StoreError) in
            try connection.execute(
                "INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, 0)",
                [.text(UUID().uuidString), .text(email), .text(String(repeating: "x", count: hashLength))])
        }
    }

    /// Rolls back the whole transaction and throws, as SQLite does under a write on some I/O or memory errors.
    static func rollBackEverything() -> @Sendable (Connection) throws(StoreError) -> Void {
        { (connection: Connection) throws(StoreError) in
            try connection.execute("ROLLBACK")
            throw StoreError.notFound
        }
    }

    static func failures(_ results: [Result<Void, StoreError>]) -> [StoreError?] {
        results.map { result in
            if case .failure(let error) = result { return error }
            return nil
        }
    }

    @Test("when a group's COMMIT fails, its writes are retried one by one and only the bad one fails")
    func commitFailureIsolatesTheBadWrite() async throws {
        try await GroupCommitTests.withDatabase { database, _ in
            let before = try GroupCommitTests.commits(database)
            // A deferred foreign-key violation passes its statement and its savepoint but fails the COMMIT.
            let orphan: @Sendable (Connection) throws(StoreError) -> Void = {
                (connection: Connection) throws(StoreError) in
                try connection.executeScript("PRAGMA defer_foreign_keys = ON")
                try connection.execute(
                    """
                    INSERT INTO sessions (id, user_id, created_at, last_used_at, refresh_expires_at, expires_at)
                    VALUES ('orphan', 'nobody', 0, 0, 0, 0)
                    """)
            }
            let results = await Self.group(
                database, [Self.insert("a@example.com"), orphan, Self.insert("c@example.com")])
            #expect(Self.failures(results) == [nil, .constraint(.foreignKey), nil])
            #expect(try GroupCommitTests.emails(database) == ["a@example.com", "c@example.com"])
            #expect(try await SessionStore(database: database).find(sessionID: "orphan") == nil)
            // The group's commit failed; the two good writes then committed one at a time.
            #expect(try GroupCommitTests.commits(database) == before + 2)
            #expect(database.pendingWrites == 0)
        }
    }

    @Test("a write whose error ended the whole transaction makes the group retry one by one; the others commit")
    func lostTransactionIsRetried() async throws {
        try await GroupCommitTests.withDatabase { database, _ in
            let results = await Self.group(
                database, [Self.insert("a@example.com"), Self.rollBackEverything(), Self.insert("c@example.com")])
            let stored = try GroupCommitTests.emails(database)
            #expect(Self.failures(results) == [nil, .notFound, nil])
            #expect(stored == ["a@example.com", "c@example.com"])
            #expect(database.pendingWrites == 0)
        }
    }

    @Test("a group on a full disk fails its writes with diskFull, and the next group succeeds once room returns")
    func diskFullGroupRecovers() async throws {
        try await GroupCommitTests.withDatabase { database, _ in
            try Fixture.user(database)
            try database.withWriterConnection { (connection: Connection) throws(StoreError) in
                let pages = try connection.queryOne("PRAGMA page_count")?.int64(0) ?? 0
                _ = try connection.query("PRAGMA max_page_count = \(pages)")
            }
            let big = (0..<5).map { Self.insert("big\($0)@example.com", hashLength: 20_000) }
            let full = await Self.group(database, big)
            #expect(Self.failures(full) == Array(repeating: .unavailable(.diskFull), count: 5))
            #expect(try GroupCommitTests.emails(database) == ["ada@example.com"])
            try database.withWriterConnection { (connection: Connection) throws(StoreError) in
                _ = try connection.query("PRAGMA max_page_count = 1073741823")
            }
            let roomy = await Self.group(database, big)
            #expect(Self.failures(roomy) == Array(repeating: nil, count: 5))
            #expect(try GroupCommitTests.emails(database).count == 6)
            #expect(database.pendingWrites == 0)
        }
    }

    @Test("a group that cannot begin (another connection holds the write lock) fails with busy, then recovers")
    func busyGroupRecovers() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let holder = try temporary.open()
        let waiter = try temporary.open(busyTimeout: .milliseconds(100))
        defer {
            holder.close()
            waiter.close()
        }
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? holder.write { (_: Connection) throws(StoreError) in
                entered.signal()
                release.wait()
            }
            finished.signal()
        }
        await WriterHold.wait(entered)
        let inserts = (0..<3).map { Self.insert("user\($0)@example.com") }
        let busy = await Self.group(waiter, inserts)
        release.signal()
        await WriterHold.wait(finished)
        #expect(Self.failures(busy) == Array(repeating: .unavailable(.busy), count: 3))
        let later = await Self.group(waiter, inserts)
        #expect(Self.failures(later) == [nil, nil, nil])
        #expect(try GroupCommitTests.emails(holder).count == 3)
    }

    @Test("a group on a writer opened read-only reopens the writer and commits its writes")
    func readOnlyWriterReopens() async throws {
        try await GroupCommitTests.withDatabase { database, temporary in
            try database.replaceWriterForTesting(
                try Connection(path: temporary.path, flags: 0x0000_0001 /* SQLITE_OPEN_READONLY */))
            let inserts = (0..<3).map { Self.insert("user\($0)@example.com") }
            let first = await Self.group(database, inserts)
            let second = await Self.group(database, (3..<6).map { Self.insert("user\($0)@example.com") })
            // The first insert fails on the read-only writer: the group is rolled back, the writer reopened
            // read-write, and the writes retried one by one succeed.
            #expect(Self.failures(first) == [nil, nil, nil])
            #expect(Self.failures(second) == [nil, nil, nil])
            #expect(try GroupCommitTests.emails(database).count == 6)
        }
    }
}
