import Foundation
import Store
import StoreTesting
import Testing

/// The outbox of `EmailStoring` gives the same answers on SQLite and PostgreSQL: rows are claimed oldest first for
/// a lease, by one owner at a time (also across two stores on one database), completed, retried with their reason,
/// given up without their body, listed, counted and pruned.
@Suite(.timeLimit(.minutes(2))) struct OutboxContractTests {
    static let lease = Duration.seconds(120)

    /// A message `id` queued `seconds` after the epoch.
    static func message(_ id: String, at seconds: Double = 0, body: [UInt8]? = nil) -> OutboxMessage {
        OutboxMessage(
            id: id, kind: "verification", recipient: "\(id)@example.com", body: body ?? Array("sealed \(id)".utf8),
            createdAt: Fixture.at(seconds))
    }

    static func claim(
        _ store: any StoreBackend, _ owner: String, limit: Int = 10, at seconds: Double
    ) async throws -> [OutboxEntry] {
        try await store.email.claimOutbox(owner: owner, limit: limit, lease: lease, now: Fixture.at(seconds))
    }

    @Test(
        "rows are claimed oldest first, with their body, up to the limit, and by one owner", arguments: Backend.allCases
    )
    func claimsOldestFirst(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.enqueue(Self.message("c", at: 3))
            try await store.email.enqueue(Self.message("a", at: 1))
            try await store.email.enqueue(Self.message("b", at: 2))
            #expect(try await Self.claim(store, "one", limit: 0, at: 5).isEmpty)
            let first = try await Self.claim(store, "one", limit: 2, at: 5)
            #expect(
                first == [
                    OutboxEntry(
                        id: "a", kind: "verification", recipient: "a@example.com", body: Array("sealed a".utf8),
                        attempts: 0, createdAt: Fixture.at(1)),
                    OutboxEntry(
                        id: "b", kind: "verification", recipient: "b@example.com", body: Array("sealed b".utf8),
                        attempts: 0, createdAt: Fixture.at(2)),
                ])
            #expect(try await Self.claim(store, "two", at: 6).map(\.id) == ["c"])
            #expect(try await Self.claim(store, "three", at: 7).isEmpty, "every row is held")
            #expect(try await store.email.pendingOutboxCount() == 3)
        }
    }

    @Test("a row is due only from its creation time", arguments: Backend.allCases)
    func notBeforeCreation(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.enqueue(Self.message("later", at: 10))
            #expect(try await Self.claim(store, "one", at: 9.999).isEmpty)
            #expect(try await Self.claim(store, "one", at: 10).map(\.id) == ["later"])
        }
    }

    @Test("a row whose lease ran out is claimed again by another owner", arguments: Backend.allCases)
    func leaseExpiry(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.enqueue(Self.message("m", at: 0))
            #expect(try await Self.claim(store, "dead", at: 1).map(\.id) == ["m"])
            #expect(try await Self.claim(store, "alive", at: 120.999).isEmpty)
            let again = try await Self.claim(store, "alive", at: 121)
            #expect(again.map(\.id) == ["m"] && again.first?.attempts == 0)
            #expect(try await store.email.listOutbox().first?.claimedUntil == Fixture.at(241))
        }
    }

    @Test(
        "releasing an owner's rows makes them due at once; other owners' and given-up rows stay as they are",
        arguments: Backend.allCases)
    func releaseByOwner(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.enqueue(Self.message("held", at: 0))
            try await store.email.enqueue(Self.message("other", at: 1))
            try await store.email.enqueue(Self.message("failed", at: 2))
            #expect(try await Self.claim(store, "host:8080", limit: 1, at: 3).map(\.id) == ["held"])
            #expect(try await Self.claim(store, "host:9090", limit: 1, at: 3).map(\.id) == ["other"])
            #expect(try await Self.claim(store, "host:8080", limit: 1, at: 3).map(\.id) == ["failed"])
            try await store.email.failOutbox(id: "failed", lastError: "refused", now: Fixture.at(4))

            #expect(try await store.email.releaseOutbox(claimedBy: "host:8080") == 1)
            #expect(try await store.email.releaseOutbox(claimedBy: "host:8080") == 0, "nothing left to release")
            let rows = Dictionary(uniqueKeysWithValues: try await store.email.listOutbox().map { ($0.id, $0) })
            #expect(rows["held"]?.claimedUntil == nil)
            #expect(rows["other"]?.claimedUntil == Fixture.at(123))
            #expect(rows["failed"]?.failedAt == Fixture.at(4))
            // Due again long before its lease would have ended, for any owner.
            #expect(try await Self.claim(store, "host:8080", at: 5).map(\.id) == ["held"])
        }
    }

    @Test("a completed row is deleted; completing it again changes nothing", arguments: Backend.allCases)
    func complete(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.enqueue(Self.message("sent"))
            try await store.email.enqueue(Self.message("kept", at: 1))
            _ = try await Self.claim(store, "one", at: 2)
            try await store.email.completeOutbox(id: "sent")
            try await store.email.completeOutbox(id: "sent")
            try await store.email.completeOutbox(id: "missing")
            #expect(try await store.email.listOutbox().map(\.id) == ["kept"])
            #expect(try await store.email.pendingOutboxCount() == 1)
        }
    }

    @Test(
        "a retry counts the attempt, keeps the reason, releases the row until its next attempt",
        arguments: Backend.allCases)
    func retry(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.enqueue(Self.message("m"))
            _ = try await Self.claim(store, "one", at: 1)
            try await store.email.retryOutbox(id: "m", nextAttemptAt: Fixture.at(3), lastError: "421 try later")
            #expect(
                try await store.email.listOutbox() == [
                    OutboxSummary(
                        id: "m", kind: "verification", recipient: "m@example.com", attempts: 1,
                        createdAt: Fixture.epoch,
                        nextAttemptAt: Fixture.at(3), claimedUntil: nil, failedAt: nil, lastError: "421 try later")
                ])
            #expect(try await Self.claim(store, "two", at: 2.999).isEmpty)
            let again = try await Self.claim(store, "two", at: 3)
            #expect(again.map(\.attempts) == [1])
            try await store.email.retryOutbox(id: "m", nextAttemptAt: Fixture.at(5), lastError: "connect timed out")
            let row = try #require(try await store.email.listOutbox().first)
            #expect(row.attempts == 2 && row.lastError == "connect timed out" && row.nextAttemptAt == Fixture.at(5))
        }
    }

    @Test(
        "a row given up keeps its reason without its body, is never claimed, and is pruned later",
        arguments: Backend.allCases)
    func giveUp(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.enqueue(Self.message("bad"))
            try await store.email.enqueue(Self.message("good", at: 1))
            _ = try await Self.claim(store, "one", at: 2)
            try await store.email.failOutbox(id: "bad", lastError: "550 no such user", now: Fixture.at(3))
            let rows = try await store.email.listOutbox()
            #expect(
                rows.first
                    == OutboxSummary(
                        id: "bad", kind: "verification", recipient: "bad@example.com", attempts: 1,
                        createdAt: Fixture.epoch, nextAttemptAt: Fixture.epoch, claimedUntil: nil,
                        failedAt: Fixture.at(3), lastError: "550 no such user"))
            #expect(try await store.email.pendingOutboxCount() == 1)
            // A late retry or completion of a given-up row does not bring it back.
            try await store.email.retryOutbox(id: "bad", nextAttemptAt: Fixture.at(4), lastError: "late")
            #expect(try await store.email.listOutbox().first?.failedAt == Fixture.at(3))
            #expect(try await Self.claim(store, "two", at: 1_000).map(\.id) == ["good"])
            #expect(try await store.email.pruneEmail(expiredBy: Fixture.at(1_000), failedBefore: Fixture.at(3)) == 0)
            #expect(
                try await store.email.pruneEmail(expiredBy: Fixture.at(1_000), failedBefore: Fixture.at(3.001)) == 1)
            #expect(try await store.email.listOutbox().map(\.id) == ["good"])
        }
    }

    @Test(
        "the next due time: creation, the end of a lease, a retry's time; given-up rows do not count",
        arguments: Backend.allCases)
    func nextDue(backend: Backend) async throws {
        try await backend.with { store in
            #expect(try await store.email.nextOutboxDue() == nil)
            try await store.email.enqueue(Self.message("a", at: 5))
            try await store.email.enqueue(Self.message("b", at: 7))
            #expect(try await store.email.nextOutboxDue() == Fixture.at(5))
            _ = try await Self.claim(store, "one", limit: 1, at: 10)
            #expect(try await store.email.nextOutboxDue() == Fixture.at(7))
            _ = try await Self.claim(store, "one", limit: 1, at: 11)
            #expect(try await store.email.nextOutboxDue() == Fixture.at(130), "a's lease ends first")
            try await store.email.retryOutbox(id: "a", nextAttemptAt: Fixture.at(20), lastError: "down")
            #expect(try await store.email.nextOutboxDue() == Fixture.at(20))
            try await store.email.failOutbox(id: "a", lastError: "gave up", now: Fixture.at(21))
            #expect(try await store.email.nextOutboxDue() == Fixture.at(131))
            try await store.email.completeOutbox(id: "b")
            #expect(try await store.email.nextOutboxDue() == nil)
        }
    }

    @Test("bodies keep every byte value", arguments: Backend.allCases)
    func binaryBodies(backend: Backend) async throws {
        try await backend.with { store in
            let every = (0...255).map { UInt8($0) } + [0, 0, 0xff]
            try await store.email.enqueue(Self.message("every", body: every))
            try await store.email.enqueue(Self.message("empty", at: 1, body: []))
            let claimed = try await Self.claim(store, "one", at: 2)
            #expect(claimed.map(\.body) == [every, []])
        }
    }

    @Test("an enqueued id that is taken is refused", arguments: Backend.allCases)
    func duplicateID(backend: Backend) async throws {
        try await backend.with { store in
            try await store.email.enqueue(Self.message("m"))
            await #expect(throws: StoreError.constraint(.primaryKey)) {
                try await store.email.enqueue(Self.message("m", at: 1))
            }
            #expect(try await store.email.listOutbox().map(\.createdAt) == [Fixture.epoch])
        }
    }

    @Test(
        "two stores on one database claiming at once get disjoint rows, and every row once",
        arguments: Backend.allCases)
    func disjointClaims(backend: Backend) async throws {
        try await backend.withTwo { first, second in
            var all: Set<String> = []
            for round in 0..<3 {
                var ids: [String] = []
                for index in 0..<120 {
                    let id = String(format: "r%d-%03d", round, index)
                    ids.append(id)
                    try await first.email.enqueue(Self.message(id, at: Double(round * 1_000 + index % 7)))
                }
                all.formUnion(ids)
                let now = Double(round * 1_000 + 10)
                // Six claimers, three per store, each claiming small batches until nothing is left.
                let claims = try await withThrowingTaskGroup(of: [String].self) { group in
                    for claimer in 0..<6 {
                        let store = claimer.isMultiple(of: 2) ? first : second
                        group.addTask {
                            var mine: [String] = []
                            while true {
                                let batch = try await store.email.claimOutbox(
                                    owner: "owner-\(claimer)", limit: 7, lease: Self.lease, now: Fixture.at(now))
                                if batch.isEmpty { return mine }
                                mine += batch.map(\.id)
                            }
                        }
                    }
                    var claims: [[String]] = []
                    for try await mine in group { claims.append(mine) }
                    return claims
                }
                let claimed = claims.flatMap { $0 }
                #expect(claimed.count == ids.count, "no row claimed twice in round \(round)")
                #expect(Set(claimed) == Set(ids), "every row claimed in round \(round)")
                for id in claimed { try await (id.hasSuffix("0") ? first : second).email.completeOutbox(id: id) }
            }
            #expect(all.count == 360)
            #expect(try await first.email.pendingOutboxCount() == 0)
            #expect(try await second.email.listOutbox().isEmpty)
        }
    }
}
