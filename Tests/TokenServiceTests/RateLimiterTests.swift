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

    @Test(
        "one busy key answers exactly like a plain sliding-window log, across expiry and compaction",
        arguments: [(limit: 3, window: 1.0), (limit: 50, window: 2.0), (limit: 1000, window: 5.0)])
    func matchesReferenceModel(limit: Int, window: Double) {
        let limiter = RateLimiter(limit: limit, window: window)
        var reference: [Double] = []  // the naive model: every allowed or recorded event, oldest first
        var generator = SplitMix64(seed: UInt64(limit))
        var now = 0.0
        for step in 0..<20_000 {
            now += Double(generator.next() % 1000) / 1000 * window / Double(limit) * 2
            reference.removeAll { $0 <= now - window }
            let expected: RateLimiter.Decision
            if reference.count >= limit, let oldest = reference.first {
                expected = .limited(retryAfter: max(1, Int((oldest + window - now).rounded(.up))))
            } else {
                expected = .allowed
            }
            if step % 7 == 0 {
                limiter.record("busy", now: now)
                reference.append(now)
                if reference.count > limit { reference.removeFirst(reference.count - limit) }
                continue
            }
            let answer = limiter.acquire("busy", now: now)
            #expect(answer == expected, "step \(step)")
            if answer != expected { return }
            if answer == .allowed { reference.append(now) }
        }
    }
}

/// A small deterministic generator (SplitMix64), so the model test replays the same times every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
