import Foundation
import IdentityProviders
import Testing

@Suite struct ProviderKeyCacheLimitsTests {
    @Test("the defaults and consistent custom limits are accepted")
    func accepted() {
        #expect(ProviderKeyCache.Limits() == .default)
        let custom = ProviderKeyCache.Limits(
            minimumMaxAge: 1, maximumMaxAge: 1, defaultMaxAge: 1, refetchInterval: 1, staleGrace: 0)
        #expect(custom.lifetime(maxAge: 500) == 1)
    }

    @Test("minimum above maximum stops the process")
    func minimumAboveMaximum() async {
        await #expect(processExitsWith: .failure) {
            _ = ProviderKeyCache.Limits(minimumMaxAge: 600, maximumMaxAge: 300, defaultMaxAge: 400)
        }
    }

    @Test("a zero or negative minimum, refetch interval, or a negative stale grace stops the process")
    func nonPositive() async {
        await #expect(processExitsWith: .failure) { _ = ProviderKeyCache.Limits(minimumMaxAge: 0) }
        await #expect(processExitsWith: .failure) { _ = ProviderKeyCache.Limits(refetchInterval: 0) }
        await #expect(processExitsWith: .failure) { _ = ProviderKeyCache.Limits(staleGrace: -1) }
    }

    @Test("a default max-age outside minimum…maximum stops the process")
    func defaultOutside() async {
        await #expect(processExitsWith: .failure) { _ = ProviderKeyCache.Limits(defaultMaxAge: 100) }
        await #expect(processExitsWith: .failure) { _ = ProviderKeyCache.Limits(defaultMaxAge: 100_000) }
    }

    @Test("a fetch may start with no attempt before, or once the refetch interval has passed since the last")
    func refetchThrottle() {
        let limits = ProviderKeyCache.Limits(refetchInterval: 60)
        let last = Date(timeIntervalSince1970: 1_000_000)
        #expect(limits.mayFetch(lastAttempt: nil, now: last))
        #expect(!limits.mayFetch(lastAttempt: last, now: last))
        #expect(!limits.mayFetch(lastAttempt: last, now: last.addingTimeInterval(59.9)))
        #expect(limits.mayFetch(lastAttempt: last, now: last.addingTimeInterval(60)))
        #expect(limits.mayFetch(lastAttempt: last, now: last.addingTimeInterval(-1)), "a clock set back allows one")
    }

    @Test("retry-after counts the whole seconds left of the refetch interval, from 1 to the interval")
    func retryAfter() {
        let limits = ProviderKeyCache.Limits(refetchInterval: 60)
        let last = Date(timeIntervalSince1970: 1_000_000)
        #expect(limits.retryAfter(lastAttempt: nil, now: last) == 60)
        #expect(limits.retryAfter(lastAttempt: last, now: last) == 60)
        #expect(limits.retryAfter(lastAttempt: last, now: last.addingTimeInterval(0.5)) == 60)
        #expect(limits.retryAfter(lastAttempt: last, now: last.addingTimeInterval(30)) == 30)
        #expect(limits.retryAfter(lastAttempt: last, now: last.addingTimeInterval(59.5)) == 1)
        #expect(limits.retryAfter(lastAttempt: last, now: last.addingTimeInterval(120)) == 1)
        #expect(limits.retryAfter(lastAttempt: last, now: last.addingTimeInterval(-10)) == 60)
    }

    @Test("what expired serves stale up to the stale grace past its expiry, never with a grace of 0")
    func servesStale() {
        let expiry = Date(timeIntervalSince1970: 1_000_000)
        let limits = ProviderKeyCache.Limits(staleGrace: 3_600)
        #expect(limits.servesStale(expiresAt: expiry, now: expiry))
        #expect(limits.servesStale(expiresAt: expiry, now: expiry.addingTimeInterval(3_599.9)))
        #expect(!limits.servesStale(expiresAt: expiry, now: expiry.addingTimeInterval(3_600)))
        #expect(!ProviderKeyCache.Limits(staleGrace: 0).servesStale(expiresAt: expiry, now: expiry))
    }
}
