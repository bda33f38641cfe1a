import Dispatch
import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Group commit of the `async` writes: queued writes share one transaction, each in its own savepoint.
@Suite(.timeLimit(.minutes(1))) struct GroupCommitTests {
    static let ttl = Duration.seconds(100)

    /// A temporary database for an async test, closed and removed on every path.
    static func withDatabase(_ body: (Database, TemporaryDatabase) async throws -> Void) async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        defer { database.close() }
        try await body(database, temporary)
    }

    static func commits(_ database: Database) throws -> UInt64 {
        database.changeToken().localCommits
    }

    /// Inserts a user row directly (so a test can add it and then throw in the same body).
    static func insertUser(_ email: String, _ connection: Connection) throws(StoreError) {
        try connection.execute(
            "INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, 'h', 0)",
            [.text(UUID().uuidString), .text(email)])
    }

    static func emails(_ database: Database) throws -> Set<String> {
        Set(try UserStore(database: database).list().map { $0.email ?? "" })
    }

    @Test("writes queued behind a busy writer share one commit and are all durable after reopening")
    func queuedWritesShareOneCommit() async throws {
        try await Self.withDatabase { database, temporary in
            let users = UserStore(database: database)
            let before = try Self.commits(database)
            let hold = await WriterHold.hold(database)
            let tasks = (0..<40).map { index in
                Task { try await users.create(email: "user\(index)@example.com", passwordHash: Fixture.hash) }
            }
            await WriterHold.waitUntilPending(database, 40)
            await hold.release()
            for task in tasks { _ = try await task.value }
            #expect(try Self.commits(database) == before + 1)
            #expect(database.pendingWrites == 0)
            database.close()
            let reopened = try temporary.open()
            defer { reopened.close() }
            #expect(try Self.emails(reopened) == Set((0..<40).map { "user\($0)@example.com" }))
        }
    }

    @Test("a group holds at most 64 writes; the rest go into the next one")
    func groupIsBounded() async throws {
        try await Self.withDatabase { database, _ in
            let users = UserStore(database: database)
            let before = try Self.commits(database)
            let hold = await WriterHold.hold(database)
            let tasks = (0..<100).map { index in
                Task { try await users.create(email: "user\(index)@example.com", passwordHash: Fixture.hash) }
            }
            await WriterHold.waitUntilPending(database, 100)
            await hold.release()
            for task in tasks { _ = try await task.value }
            #expect(try Self.commits(database) == before + 2)
            #expect(try await users.list().count == 100)
        }
    }

    @Test("500 concurrent async writes of mixed kinds are all durable after reopening")
    func manyConcurrentWritesDurable() async throws {
        try await Self.withDatabase { database, temporary in
            let user = try await UserStore(database: database).create(email: "ada@example.com", passwordHash: "h")
            let sessions = SessionStore(database: database)
            let created = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<500 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            return try await UserStore(database: database).create(
                                email: "user\(index)@example.com", passwordHash: Fixture.hash
                            ).email ?? ""
                        }
                        return try await sessions.create(
                            userID: user.id, userAgent: nil, ip: nil, refreshTTL: Self.ttl, maxLifetime: .seconds(900)
                        ).id
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(created.count == 500 && database.pendingWrites == 0)
            database.close()
            let reopened = try temporary.open()
            defer { reopened.close() }
            let stored = try await reopened.read { (connection: Connection) throws(StoreError) in
                try connection.query("SELECT email FROM users UNION ALL SELECT id FROM sessions")
                    .map { (row: Row) throws(StoreError) in try row.string(0) }
            }
            #expect(Set(stored).isSuperset(of: created) && stored.count == 501)
        }
    }

    @Test("a write that throws inside a group rolls back only its own changes; the others commit")
    func throwingWriteRollsBackOnlyItself() async throws {
        try await Self.withDatabase { database, _ in
            let before = try Self.commits(database)
            let hold = await WriterHold.hold(database)
            let first = await WriterHold.enqueue(database, queued: 1) {
                try await database.write { (connection: Connection) throws(StoreError) in
                    try Self.insertUser("a@example.com", connection)
                }
            }
            let throwing = await WriterHold.enqueue(database, queued: 2) {
                try await database.write { (connection: Connection) throws(StoreError) in
                    try Self.insertUser("b@example.com", connection)
                    throw StoreError.notFound
                }
            }
            let third = await WriterHold.enqueue(database, queued: 3) {
                try await database.write { (connection: Connection) throws(StoreError) in
                    try Self.insertUser("c@example.com", connection)
                }
            }
            let duplicate = await WriterHold.enqueue(database, queued: 4) {
                try await database.write { (connection: Connection) throws(StoreError) in
                    try Self.insertUser("d@example.com", connection)
                    try Self.insertUser("a@example.com", connection)  // taken by the first write of the group
                }
            }
            await hold.release()
            try await first.value
            await #expect(throws: StoreError.notFound) { try await throwing.value }
            try await third.value
            await #expect(throws: StoreError.constraint(.unique)) { try await duplicate.value }
            #expect(try Self.emails(database) == ["a@example.com", "c@example.com"])
            #expect(try Self.commits(database) == before + 1)
        }
    }

    @Test("writes of one group see the earlier ones in queue order: rotate, converge, rotate, detect reuse")
    func laterWritesSeeEarlierOnes() async throws {
        try await Self.withDatabase { database, _ in
            let user = try await UserStore(database: database).create(email: "ada@example.com", passwordHash: "h")
            let sessions = SessionStore(database: database)
            let session = try await sessions.create(
                userID: user.id, userAgent: nil, ip: nil, refreshTTL: Self.ttl, maxLifetime: .seconds(900))
            let before = try Self.commits(database)
            let hold = await WriterHold.hold(database)
            var tasks: [Task<RotationOutcome, any Error>] = []
            for (index, presented) in [Int64(0), 0, 1, 0].enumerated() {
                tasks.append(
                    await WriterHold.enqueue(database, queued: index + 1) {
                        try await sessions.rotate(
                            sessionID: session.id, presentedCounter: presented, grace: .seconds(10),
                            refreshTTL: Self.ttl)
                    })
            }
            await hold.release()
            var outcomes: [RotationOutcome] = []
            for task in tasks { outcomes.append(try await task.value) }
            guard case .rotated(_, 1) = outcomes[0], case .converged(_, 1) = outcomes[1],
                case .rotated(_, 2) = outcomes[2]
            else {
                Issue.record("unexpected outcomes \(outcomes)")
                return
            }
            #expect(outcomes[3] == .reuseDetected(sessionID: session.id, userID: user.id))
            #expect(try await sessions.find(sessionID: session.id)?.revokedAt != nil)
            #expect(try Self.commits(database) == before + 1)
        }
    }

    @Test("sequential writes of each task keep their order while tasks and synchronous writers interleave")
    func orderPerWriterWithSyncInterleaved() async throws {
        try await Self.withDatabase { database, _ in
            let rounds = 25
            let syncDone = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for index in 0..<rounds {
                    _ = try? database.write { (connection: Connection) throws(StoreError) in
                        try Self.insertUser("sync-\(index)@example.com", connection)
                    }
                }
                syncDone.signal()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for index in 0..<rounds {
                            try await database.write { (connection: Connection) throws(StoreError) in
                                try Self.insertUser("task\(writer)-\(index)@example.com", connection)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            await WriterHold.wait(syncDone)
            // users has a rowid: insertion order is rowid order.
            let inserted = try await database.read { (connection: Connection) throws(StoreError) in
                try connection.query("SELECT email FROM users ORDER BY rowid")
                    .map { (row: Row) throws(StoreError) in try row.string(0) }
            }
            #expect(inserted.count == 5 * rounds)
            for writer in ["sync", "task0", "task1", "task2", "task3"] {
                let order = inserted.filter { $0.hasPrefix(writer + "-") }
                #expect(order == (0..<rounds).map { "\(writer)-\($0)@example.com" })
            }
        }
    }
}
