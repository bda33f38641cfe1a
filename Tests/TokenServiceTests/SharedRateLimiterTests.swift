import Foundation
import Logging
import Store
import Synchronization
import Testing
import TokenServiceTesting

@testable import TokenService

/// The rate limits shared through the store's counters (`SharedRateLimiter` over `RateLimitCounters`), against
/// deterministic in-memory counters and a hand-moved clock.
@Suite struct SharedRateLimiterTests {
    /// A clock at a whole multiple of 900 s plus `offset`, moved by hand.
    final class Clock: Sendable {
        let seconds: Mutex<Double>
        init(offset: Double) { seconds = Mutex(1_800_000_000 + offset) }
        var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    static func limiter(_ counters: FakeRateLimitCounters, limit: Int, window: Int, clock: Clock) -> SharedRateLimiter {
        SharedRateLimiter(
            counters: counters, bucket: SharedRateLimiter.loginFailures, limit: limit, window: .seconds(window),
            now: { clock.now })
    }

    @Test("five recorded failures allow five checks, the sixth is limited until the window has slid past them")
    func loginFailures() async throws {
        let clock = Clock(offset: 100)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 5, window: 900, clock: clock)
        for _ in 0..<5 {
            #expect(try await limiter.check("ada@example.com") == .allowed)
            try await limiter.record("ada@example.com")
        }
        // 5 failures in the window that started 100 s ago: 800 s left, then the estimate (5 × (1 − τ/900)) must
        // fall to 4: τ = 180 s.
        #expect(try await limiter.check("ada@example.com") == .limited(retryAfter: 980))
        #expect(try await limiter.check("bob@example.com") == .allowed)
        clock.advance(979)
        #expect(try await limiter.check("ada@example.com") == .limited(retryAfter: 1))
        clock.advance(1)
        #expect(try await limiter.check("ada@example.com") == .allowed)
    }

    @Test("a reset forgets the account's failures in the shared store")
    func reset() async throws {
        let clock = Clock(offset: 0)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 2, window: 900, clock: clock)
        try await limiter.record("ada@example.com")
        try await limiter.record("ada@example.com")
        #expect(try await limiter.check("ada@example.com") != .allowed)
        try await limiter.reset("ada@example.com")
        #expect(try await limiter.check("ada@example.com") == .allowed)
    }

    @Test("acquire counts each request and refuses beyond the limit, with the time until one fits")
    func acquire() async throws {
        let clock = Clock(offset: 30)  // 30 s into a 60 s window
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 3, window: 60, clock: clock)
        for _ in 0..<3 { #expect(try await limiter.acquire("203.0.113.5") == .allowed) }
        // Refused attempts count too (4 in this window): 30 s left, then 4 × (1 − τ/60) ≤ 2 → τ = 30 s.
        #expect(try await limiter.acquire("203.0.113.5") == .limited(retryAfter: 60))
        #expect(try await limiter.acquire("198.51.100.7") == .allowed)
    }

    @Test("the previous window's events count by their overlap with the sliding window")
    func slidingEstimate() async throws {
        let clock = Clock(offset: 50)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 4, window: 60, clock: clock)
        for _ in 0..<4 { #expect(try await limiter.acquire("k") == .allowed) }
        clock.advance(25)  // 15 s into the next window: the 4 earlier ones weigh 4 × 0.75 = 3
        // 3 + 1 fits; then 3 + 1 + 1 does not (and counts): wait until 4·(1 − e) + 2 ≤ 3, e = 0.75 → 30 s more.
        #expect(try await limiter.acquire("k") == .allowed)
        #expect(try await limiter.acquire("k") == .limited(retryAfter: 30))
    }

    @Test("decisions follow the estimate exactly at the boundary", arguments: [(4, 4, true), (4, 5, false)])
    func boundary(limit: Int, events: Int, fits: Bool) {
        let limiter = SharedRateLimiter(
            counters: FakeRateLimitCounters(), bucket: "b", limit: limit, window: .seconds(60), now: { Date() })
        let count = RateCount(current: events, previous: 0, elapsed: 0.5, secondsLeft: 30)
        #expect((limiter.decision(count, including: true) == .allowed) == fits)
    }

    @Test("the sixth failed login is 429 through the service when the counters are shared")
    func sixthFailedLogin() async throws {
        let clock = Clock(offset: 10)
        let counters = FakeRateLimitCounters()
        try await FaultyServer.with(counters: counters, now: { clock.now }) { server in
            _ = try await server.signUp("ada@example.com")
            let wrong = #"{"email":"ada@example.com","password":"wrong password here"}"#
            for _ in 0..<5 { #expect(await server.request("POST", "/auth/login", json: wrong).status == 401) }
            let sixth = await server.request("POST", "/auth/login", json: wrong)
            #expect(sixth.status == 429)
            #expect(Int(sixth.headers["retry-after"] ?? "") ?? 0 >= 1)
            // Even the right password waits (the account is limited, not the attempt).
            let right = #"{"email":"ada@example.com","password":"\#(TestServer.password)"}"#
            #expect(await server.request("POST", "/auth/login", json: right).status == 429)
            let calls = counters.calls.withLock { $0 }
            #expect(calls.contains("add 1 \(SharedRateLimiter.loginFailures)"))
            #expect(calls.contains("add 1 \(SharedRateLimiter.addressRequests)"))
            // Checks read; they never write a zero.
            #expect(calls.contains("count \(SharedRateLimiter.loginFailures)"))
            #expect(!calls.contains { $0.hasPrefix("add 0") })
        }
    }

    @Test("a successful login resets the shared failures")
    func successResets() async throws {
        let clock = Clock(offset: 10)
        let counters = FakeRateLimitCounters()
        try await FaultyServer.with(counters: counters, now: { clock.now }) { server in
            _ = try await server.signUp("ada@example.com")
            let wrong = #"{"email":"ada@example.com","password":"wrong password here"}"#
            let right = #"{"email":"ada@example.com","password":"\#(TestServer.password)"}"#
            for _ in 0..<4 { #expect(await server.request("POST", "/auth/login", json: wrong).status == 401) }
            #expect(await server.request("POST", "/auth/login", json: right).status == 200)
            for _ in 0..<5 { #expect(await server.request("POST", "/auth/login", json: wrong).status == 401) }
            #expect(await server.request("POST", "/auth/login", json: wrong).status == 429)
        }
    }

    @Test("with the counter store down, logins fail closed with 503 and Retry-After, never unlimited 401s")
    func failsClosed() async throws {
        let counters = FakeRateLimitCounters()
        try await FaultyServer.with(counters: counters) { server in
            _ = try await server.signUp("ada@example.com")
            counters.failure.withLock { $0 = .unavailable(.unreachable) }
            for password in ["wrong password here", TestServer.password] {
                let answer = await server.request(
                    "POST", "/auth/login", json: #"{"email":"ada@example.com","password":"\#(password)"}"#)
                #expect(answer.status == 503)
                #expect(answer.errorCode == "unavailable")
                #expect(answer.headers["retry-after"] == "2")
            }
            counters.failure.withLock { $0 = .unavailable(.timedOut) }
            let timedOut = await server.request(
                "POST", "/auth/login", json: #"{"email":"ada@example.com","password":"\#(TestServer.password)"}"#)
            #expect(timedOut.status == 503)
            #expect(timedOut.headers["retry-after"] == "1")
            counters.failure.withLock { $0 = nil }
            let login = await server.request(
                "POST", "/auth/login", json: #"{"email":"ada@example.com","password":"\#(TestServer.password)"}"#)
            #expect(login.status == 200)
        }
    }

    @Test("a store without shared counters keeps the limits in memory")
    func inMemoryWithoutCounters() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "tokenvend-limiter-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(configuration: .init(path: directory.appending(path: "db.sqlite").path))
        defer { store.close() }
        let limiter = Components.limiter(store, bucket: "b", limit: 1, windowSeconds: 60, now: { Date() })
        #expect(limiter is RateLimiter)
        let shared = FaultyStore(inner: store, faults: StoreFaults(), counters: FakeRateLimitCounters())
        #expect(
            Components.limiter(shared, bucket: "b", limit: 1, windowSeconds: 60, now: { Date() }) is SharedRateLimiter)
    }

    @Test("the purger prunes shared counters whose windows ended before its retention")
    func purgerPrunes() async throws {
        let clock = Clock(offset: 0)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 5, window: 60, clock: clock)
        try await limiter.record("old")
        clock.advance(600)
        try await limiter.record("new")
        #expect(counters.keptWindows == 2)
        let directory = FileManager.default.temporaryDirectory.appending(path: "tokenvend-purge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(configuration: .init(path: directory.appending(path: "db.sqlite").path))
        defer { store.close() }
        var configuration = SessionPurger.Configuration()
        configuration.counterRetention = .seconds(120)
        let purger = SessionPurger(
            sessions: store.sessions, rateLimits: counters, configuration: configuration, logger: .init(label: "t"),
            now: { clock.now })
        _ = await purger.purgeNow()
        await purger.stop()
        #expect(counters.keptWindows == 1)
    }
}
