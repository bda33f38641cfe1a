import Testing

@testable import TokenService

@Suite struct RateLimiterTests {
    @Test("allows up to the limit in the window, then says when to retry")
    func limitsAndRetryAfter() {
        let limiter = RateLimiter(limit: 3, window: 60)
        #expect(limiter.acquire("a", now: 0) == .allowed)
        #expect(limiter.acquire("a", now: 10) == .allowed)
        #expect(limiter.acquire("a", now: 20) == .allowed)
        #expect(limiter.acquire("a", now: 30) == .limited(retryAfter: 30))
        #expect(limiter.acquire("b", now: 30) == .allowed)
    }

    @Test("the window slides: the oldest event expiring frees one slot")
    func slidingWindow() {
        let limiter = RateLimiter(limit: 2, window: 60)
        #expect(limiter.acquire("a", now: 0) == .allowed)
        #expect(limiter.acquire("a", now: 30) == .allowed)
        #expect(limiter.acquire("a", now: 59) == .limited(retryAfter: 1))
        #expect(limiter.acquire("a", now: 60.5) == .allowed)
        #expect(limiter.acquire("a", now: 61) == .limited(retryAfter: 29))
    }

    @Test("recorded failures count without being allowed, and reset clears them")
    func recordAndReset() {
        let limiter = RateLimiter(limit: 2, window: 900)
        limiter.record("user@example.com", now: 0)
        #expect(limiter.check("user@example.com", now: 1) == .allowed)
        limiter.record("user@example.com", now: 2)
        #expect(limiter.check("user@example.com", now: 3) == .limited(retryAfter: 897))
        limiter.reset("user@example.com")
        #expect(limiter.check("user@example.com", now: 4) == .allowed)
    }

    @Test("a flood of distinct keys never grows the table past its bound")
    func boundedMemory() {
        let limiter = RateLimiter(limit: 5, window: 60, maxKeys: 500)
        for index in 0..<5000 {
            _ = limiter.acquire("address-\(index)", now: Double(index) / 1000)
        }
        #expect(limiter.trackedKeys <= 500)
        #expect(limiter.acquire("address-4999", now: 10) == .allowed)
    }
}
