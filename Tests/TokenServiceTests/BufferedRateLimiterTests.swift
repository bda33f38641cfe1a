import Foundation
import SQLiteStore
import Store
import Synchronization
import Testing

@testable import TokenService

/// The per-address limit on shared counters without a store write per request (`BufferedRateLimiter`), against
/// deterministic in-memory counters and a hand-moved clock.
@Suite struct BufferedRateLimiterTests {
    typealias Clock = SharedRateLimiterTests.Clock
    static let bucket = SharedRateLimiter.addressRequests

    static func limiter(
        _ counters: FakeRateLimitCounters, limit: Int, clock: Clock, flushInterval: Duration = .seconds(3600)
    ) -> BufferedRateLimiter {
        BufferedRateLimiter(
            counters: counters, bucket: bucket, limit: limit, window: .seconds(60), flushInterval: flushInterval,
            maxAge: .milliseconds(200), now: { clock.now })
    }

    static func adds(_ counters: FakeRateLimitCounters) -> [String] {
        counters.calls.withLock { $0 }.filter { $0.hasPrefix("add") }
    }

    @Test("the first request for a key adds and reads synchronously; later ones are counted locally and flushed")
    func localCounting() async throws {
        let clock = Clock(offset: 30)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 5, clock: clock)
        #expect(try await limiter.acquire("203.0.113.5") == .allowed)
        #expect(Self.adds(counters) == ["add 1 \(Self.bucket)"])
        for _ in 0..<4 { #expect(try await limiter.acquire("203.0.113.5") == .allowed) }
        #expect(Self.adds(counters).count == 1)  // no store call for a key read within maxAge
        // The sixth is refused on the local count alone (5 in the current sub-window), and counts too.
        #expect(try await limiter.acquire("203.0.113.5") == .limited(retryAfter: 60))
        await limiter.flush()
        #expect(Self.adds(counters) == ["add 1 \(Self.bucket)", "add 5 \(Self.bucket)"])
        let stored = try await counters.recent(
            adding: ["203.0.113.5": 0], bucket: Self.bucket, window: .milliseconds(7_500), windows: 8, durable: true,
            now: clock.now)
        #expect(stored["203.0.113.5"]?.counts.reduce(0, +) == 6)
        // After the flush the decision rests on the global count read back: still refused, nothing doubled.
        #expect(try await limiter.check("203.0.113.5") == .limited(retryAfter: 60))
    }

    @Test("two instances share one budget: each sees the other's flushed events once it reads them")
    func twoInstances() async throws {
        let clock = Clock(offset: 0)
        let counters = FakeRateLimitCounters()
        let a = Self.limiter(counters, limit: 10, clock: clock)
        let b = Self.limiter(counters, limit: 10, clock: clock)
        for _ in 0..<6 { #expect(try await a.acquire("k") == .allowed) }
        await a.flush()
        // B has not read "k": its first request reads the 6 of A synchronously.
        for _ in 0..<4 { #expect(try await b.acquire("k") == .allowed) }
        #expect(try await b.acquire("k") != .allowed)
        await b.flush()
        // A's counts are older than maxAge now: it reads again and sees B's.
        clock.advance(0.3)
        #expect(try await a.acquire("k") != .allowed)
    }

    @Test("a failed flush keeps its counts for the next one; a key left unread past maxAge fails closed")
    func storeDown() async throws {
        let clock = Clock(offset: 0)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 100, clock: clock)
        #expect(try await limiter.acquire("k") == .allowed)
        #expect(try await limiter.acquire("k") == .allowed)
        #expect(try await limiter.acquire("k") == .allowed)
        counters.failure.withLock { $0 = .unavailable(.unreachable) }
        await limiter.flush()
        clock.advance(0.1)
        #expect(try await limiter.acquire("k") == .allowed)  // within maxAge: decided locally
        clock.advance(0.2)
        await #expect(throws: StoreError.unavailable(.unreachable)) { try await limiter.acquire("k") }
        counters.failure.withLock { $0 = nil }
        await limiter.flush()
        #expect(Self.adds(counters) == ["add 1 \(Self.bucket)", "add 3 \(Self.bucket)"])
    }

    @Test("counts are flushed by themselves within the flush interval")
    func flushesBySelf() async throws {
        let clock = Clock(offset: 0)
        let counters = FakeRateLimitCounters()
        let limiter = Self.limiter(counters, limit: 100, clock: clock, flushInterval: .milliseconds(20))
        for _ in 0..<4 { _ = try await limiter.acquire("k") }
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.adds(counters).count < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(Self.adds(counters) == ["add 1 \(Self.bucket)", "add 3 \(Self.bucket)"])
    }

    @Test("the per-address limiter on shared counters is the buffered one; failed logins stay synchronous")
    func components() throws {
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "tokenvend-buffered-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(configuration: .init(path: directory.appending(path: "db.sqlite").path))
        defer { store.close() }
        let shared = FaultyStore(inner: store, faults: StoreFaults(), counters: FakeRateLimitCounters())
        let limiter = Components.limiter(
            shared, bucket: "b", limit: 1, windowSeconds: 60, buffered: true, now: { Date() })
        #expect(limiter is BufferedRateLimiter)
        #expect(
            Components.limiter(store, bucket: "b", limit: 1, windowSeconds: 60, buffered: true, now: { Date() })
                is RateLimiter)
    }
}
