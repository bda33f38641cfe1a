import AuthAPI
import Logging
import Testing

@testable import TokenService

private func projectToken(_ token: String, expiresIn: Int = 3600) -> Result<MossProjectToken, MossError> {
    .success(MossProjectToken(token: token, expiresIn: expiresIn))
}

/// A cache with a 120 s refresh-ahead window on the hand-driven clock.
private func makeCache(_ upstream: FakeUpstreamScripted, clock: MossTestClock) -> MossTokenCache {
    MossTokenCache(
        upstream: upstream,
        refreshAhead: .seconds(120),
        logger: Logger(label: "test.moss", factory: { _ in SwiftLogNoOpLogHandler() })
    ) { clock.now }
}

/// Yields until the cache has finished `count` refreshes (successful or failed) in total.
private func settle(_ cache: MossTokenCache, attempts count: Int) async {
    while cache.statistics.refreshes + cache.statistics.failures < count { await Task.yield() }
}

@Suite struct MossTokenCacheRefreshAheadTests {
    @Test("without refresh-ahead, hits never start a refresh before the refresh point")
    func offByDefault() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted(always: projectToken("tok-1"))
        let cache = MossTokenCache(
            upstream: upstream, logger: Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            clock.now
        }
        _ = try await cache.token()
        clock.advance(by: .seconds(3539))
        #expect(cache.cachedToken()?.token == "tok-1")
        #expect(try await cache.token().token == "tok-1")
        #expect(await upstream.calls == 1)
        #expect(cache.refreshAhead == .zero)
    }

    @Test("a hit inside the window serves the current token and refreshes once in the background")
    func backgroundRefresh() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted([projectToken("tok-1"), projectToken("tok-2")])
        let cache = makeCache(upstream, clock: clock)
        _ = try await cache.token()

        clock.advance(by: .seconds(3419))
        #expect(cache.cachedToken()?.token == "tok-1")
        #expect(await upstream.calls == 1)

        clock.advance(by: .seconds(1))
        #expect(cache.cachedToken() == VendedToken(token: "tok-1", expiresIn: 120))
        for _ in 0..<100 { #expect(cache.cachedToken() != nil) }
        await settle(cache, attempts: 2)
        #expect(cache.cachedToken() == VendedToken(token: "tok-2", expiresIn: 3540))
        #expect(await upstream.calls == 2)
    }

    @Test("a failed background refresh keeps serving the current token and retries only after the interval")
    func backgroundFailureBacksOff() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted([
            projectToken("tok-1"), .failure(.upstreamUnavailable), projectToken("tok-2"),
        ])
        let cache = makeCache(upstream, clock: clock)
        _ = try await cache.token()

        clock.advance(by: .seconds(3430))
        #expect(try await cache.token().token == "tok-1")
        await settle(cache, attempts: 2)
        #expect(cache.statistics.failures == 1)

        clock.advance(by: .seconds(4))
        #expect(cache.cachedToken()?.token == "tok-1")
        #expect(await upstream.calls == 2)

        clock.advance(by: .seconds(1))
        #expect(cache.cachedToken()?.token == "tok-1")
        await settle(cache, attempts: 3)
        #expect(cache.cachedToken()?.token == "tok-2")
        #expect(await upstream.calls == 3)
    }

    @Test("past the refresh point a caller refreshes at once even while background attempts back off")
    func foregroundIgnoresBackoff() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted([
            projectToken("tok-1"), .failure(.upstreamUnavailable), projectToken("tok-2"),
        ])
        let cache = makeCache(upstream, clock: clock)
        _ = try await cache.token()

        clock.advance(by: .seconds(3538))
        _ = cache.cachedToken()
        await settle(cache, attempts: 2)
        clock.advance(by: .seconds(2))
        #expect(cache.cachedToken() == nil)
        #expect(try await cache.token().token == "tok-2")
        #expect(await upstream.calls == 3)
    }

    @Test("callers past the refresh point join a background refresh already in flight")
    func foregroundJoinsBackground() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted([projectToken("tok-1"), projectToken("tok-2")])
        let cache = makeCache(upstream, clock: clock)
        _ = try await cache.token()
        await upstream.close()

        clock.advance(by: .seconds(3500))
        #expect(cache.cachedToken()?.token == "tok-1")
        while await upstream.calls < 2 { await Task.yield() }
        clock.advance(by: .seconds(40))
        let waiter = Task { try? await cache.token() }
        while cache.waitingCallers < 1 { await Task.yield() }
        await upstream.open()
        #expect(await waiter.value?.token == "tok-2")
        #expect(await upstream.calls == 2)
    }
}
