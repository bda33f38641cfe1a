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
}
