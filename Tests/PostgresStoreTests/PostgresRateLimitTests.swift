import Foundation
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Rate-limit counters shared by every store on one database.
@Suite(.timeLimit(.minutes(1))) struct PostgresRateLimitTests {
    @Test("two stores count into the same window; the previous window is reported; reset and prune")
    func shared() async throws {
        let database = try await PostgresTestDatabase.make()
        let a = try await database.open()
        let b = try await database.open()
        defer {
            a.close()
            b.close()
        }
        let counters = try #require(a.rateLimits)
        let other = try #require(b.rateLimits)
        let window = Duration.seconds(60)
        // Fixture.epoch is a multiple of 60 s, so windows start there.
        #expect(
            try await counters.add(1, bucket: "login", key: "ada", window: window, now: Fixture.at(15)).current == 1)
        let second = try await other.add(1, bucket: "login", key: "ada", window: window, now: Fixture.at(30))
        #expect(second == RateCount(current: 2, previous: 0, elapsed: 0.5, secondsLeft: 30))
        #expect(try await other.add(1, bucket: "login", key: "bob", window: window, now: Fixture.at(30)).current == 1)
        #expect(try await other.add(1, bucket: "signup", key: "ada", window: window, now: Fixture.at(30)).current == 1)
        let next = try await counters.add(3, bucket: "login", key: "ada", window: window, now: Fixture.at(75))
        #expect(next == RateCount(current: 3, previous: 2, elapsed: 0.25, secondsLeft: 45))
        #expect(abs(next.estimate - (2 * 0.75 + 3)) < 0.0001)
        #expect(
            try await counters.add(0, bucket: "login", key: "ada", window: window, now: Fixture.at(80)).current == 3)
        try await other.reset(bucket: "login", key: "ada")
        #expect(
            try await counters.add(0, bucket: "login", key: "ada", window: window, now: Fixture.at(80)).current == 0)
        // Windows [0, 60) of bob and signup have ended by 61 s; the [60, 120) ones have not.
        #expect(try await counters.prune(endedBefore: Fixture.at(61)) == 2)
        #expect(try await counters.prune(endedBefore: Fixture.at(61)) == 0)
        await database.remove()
    }

    @Test("recent: one call adds to several keys (durable or not) and reads their last windows back; zero only reads")
    func recent() async throws {
        let database = try await PostgresTestDatabase.make()
        let a = try await database.open()
        let b = try await database.open()
        defer {
            a.close()
            b.close()
        }
        let counters = try #require(a.rateLimits)
        let other = try #require(b.rateLimits)
        let window = Duration.seconds(10)
        // Fixture.epoch is a multiple of 10 s.
        let first = try await counters.recent(
            adding: ["ada": 2, "bob": 1], bucket: "req", window: window, windows: 4, durable: false,
            now: Fixture.at(5))
        #expect(first["ada"] == RecentCounts(counts: [2, 0, 0, 0], elapsedMilliseconds: 5_000))
        #expect(first["bob"] == RecentCounts(counts: [1, 0, 0, 0], elapsedMilliseconds: 5_000))
        _ = try await other.recent(
            adding: ["ada": 3], bucket: "req", window: window, windows: 4, durable: true, now: Fixture.at(21))
        let later = try await counters.recent(
            adding: ["ada": 1, "cy": 0], bucket: "req", window: window, windows: 4, durable: false,
            now: Fixture.at(32.5))
        #expect(later["ada"] == RecentCounts(counts: [1, 3, 0, 2], elapsedMilliseconds: 2_500))
        #expect(later["cy"] == RecentCounts(counts: [0, 0, 0, 0], elapsedMilliseconds: 2_500))
        // Only 4 windows back: the 2 of [0, 10) have left by 40 s.
        let read = try await other.recent(
            adding: ["ada": 0], bucket: "req", window: window, windows: 4, durable: true, now: Fixture.at(40))
        #expect(read["ada"] == RecentCounts(counts: [0, 1, 3, 0], elapsedMilliseconds: 0))
        let rows = try await database.query("SELECT key, count(*) FROM rate_limits GROUP BY key ORDER BY key")
        #expect(rows.map { $0[0] ?? "" } == ["ada", "bob"])  // reading "cy" created no row
        await database.remove()
    }

    @Test("with the database clock, window boundaries come from the database, not the caller")
    func databaseClock() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(clock: .database)
        defer { store.close() }
        let counters = try #require(store.rateLimits)
        let far = Date(timeIntervalSince1970: 0)
        _ = try await counters.add(1, bucket: "b", key: "k", window: .seconds(3600), now: far)
        let count = try await counters.add(1, bucket: "b", key: "k", window: .seconds(3600), now: Date())
        #expect(count.current == 2)
        let rows = try await database.query("SELECT window_start FROM rate_limits")
        let start = try #require(rows.first?[0].flatMap { Int64($0) })
        #expect(abs(Double(start) / 1000 - Date().timeIntervalSince1970) < 3600 + 60)
        await database.remove()
    }

    @Test("a check reads without writing, and counter writes leave kept session answers in place")
    func checkIsReadOnly() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(statusCacheLifetime: .seconds(60))
        defer { store.close() }
        #expect(await PostgresStatusCacheTests.listening(store))
        let counters = try #require(store.rateLimits)
        let window = Duration.seconds(60)
        let user = try await Fixture.user(store)
        let session = try await Fixture.session(store, user)
        _ = try await store.sessions.status(sessionID: session.id)
        func kept() throws -> Bool {
            if case .value = try store.sessions.immediateStatus(sessionID: session.id) { return true }
            return false
        }
        #expect(try kept())
        // A check of a key never seen creates no row and reports nothing.
        let fresh = try await counters.count(bucket: "login", key: "ada", window: window, now: Fixture.at(15))
        #expect(fresh == RateCount(current: 0, previous: 0, elapsed: 0.25, secondsLeft: 45))
        #expect(try await database.query("SELECT count(*) FROM rate_limits") == [["0"]])
        _ = try await counters.add(2, bucket: "login", key: "ada", window: window, now: Fixture.at(15))
        _ = try await counters.add(1, bucket: "login", key: "ada", window: window, now: Fixture.at(65))
        let checked = try await counters.count(bucket: "login", key: "ada", window: window, now: Fixture.at(75))
        #expect(checked == RateCount(current: 1, previous: 2, elapsed: 0.25, secondsLeft: 45))
        #expect(try await counters.count(bucket: "login", key: "ada", window: window, now: Fixture.at(75)) == checked)
        try await counters.reset(bucket: "login", key: "bob")
        _ = try await counters.prune(endedBefore: Fixture.at(0))
        #expect(try kept())
        await database.remove()
    }
}
