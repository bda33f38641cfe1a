import Foundation
import Logging
import SQLiteStore
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

    @Test("five recorded failures allow five checks, the sixth is limited until their sub-window leaves the window")
    func loginFailures() async throws {
        let clock = Clock(offset: 100)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 5, window: 900, clock: clock)
        for _ in 0..<5 {
            #expect(try await limiter.check("ada@example.com") == .allowed)
            try await limiter.record("ada@example.com")
        }
        // 5 failures in the sub-window [0, 112.5 s) of a 900 s window: counted until it leaves the window at 900 s,
        // 800 s from now (never more than the window, as the in-memory limiter promises).
        #expect(try await limiter.check("ada@example.com") == .limited(retryAfter: 800))
        #expect(try await limiter.check("bob@example.com") == .allowed)
        clock.advance(799)
        #expect(try await limiter.check("ada@example.com") == .limited(retryAfter: 1))
        clock.advance(1)
        #expect(try await limiter.check("ada@example.com") == .allowed)
    }

    @Test(
        "Retry-After never exceeds the window, wherever in their sub-windows the events fell",
        arguments: [0.0, 1, 56, 112, 112.5, 500, 899])
    func retryAfterWithinWindow(offset: Double) async throws {
        let clock = Clock(offset: offset)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 5, window: 900, clock: clock)
        for step in 0..<5 {
            try await limiter.record("ada@example.com")
            clock.advance(Double(step) * 7)
        }
        var waited = 0.0
        while case .limited(let seconds) = try await limiter.check("ada@example.com") {
            #expect(seconds >= 1 && seconds <= 900)
            clock.advance(Double(seconds))
            waited += Double(seconds)
            #expect(waited <= 900)
            if waited > 900 { break }
        }
        // Once the check allows, one more event fits.
        #expect(try await limiter.acquire("ada@example.com") == .allowed)
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

    @Test("events count while their sub-window is inside the window, then leave it all at once")
    func subWindows() async throws {
        let clock = Clock(offset: 50)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 4, window: 60, clock: clock)
        for _ in 0..<4 { #expect(try await limiter.acquire("k") == .allowed) }
        clock.advance(25)  // at 75 s the 4 events of the sub-window [45, 52.5) still count; it leaves at 105 s
        #expect(try await limiter.acquire("k") == .limited(retryAfter: 30))
        clock.advance(29)  // at 104 s: 1 s left
        #expect(try await limiter.check("k") == .limited(retryAfter: 1))
        clock.advance(1)  // at 105 s only the refused attempt of 75 s counts (until 135 s)
        for _ in 0..<3 { #expect(try await limiter.acquire("k") == .allowed) }
        #expect(try await limiter.acquire("k") == .limited(retryAfter: 30))
    }

    @Test("decisions are exact at the boundary", arguments: [(4, 4, true), (4, 5, false)])
    func boundary(limit: Int, events: Int, fits: Bool) {
        let windows = SubWindows(window: .seconds(60))
        let counts = RecentCounts(counts: [events, 0, 0, 0, 0, 0, 0, 0], elapsedMilliseconds: 3_000)
        #expect((windows.decision(counts, limit: limit, including: true) == .allowed) == fits)
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
