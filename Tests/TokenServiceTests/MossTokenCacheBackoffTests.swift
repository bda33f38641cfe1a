import AuthAPI
import Logging
import Testing

@testable import TokenService

private func makeCache(_ upstream: FakeUpstreamScripted, clock: MossTestClock) -> MossTokenCache {
    MossTokenCache(upstream: upstream, logger: Logger(label: "test.moss", factory: { _ in SwiftLogNoOpLogHandler() })) {
        clock.now
    }
}

private func outcome(_ cache: MossTokenCache) async -> Result<VendedToken, MossError> {
    do throws(MossError) { return .success(try await cache.token()) } catch { return .failure(error) }
}

/// After a failed refresh, callers are answered 503 at once for a backoff instead of waiting on a dead upstream.
@Suite struct MossTokenCacheBackoffTests {
    @Test("after a failure callers get 503 with Retry-After at once; the backoff doubles from 1 s up to 30 s")
    func backoffDoubles() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted(always: .failure(.upstreamUnavailable))
        let cache = makeCache(upstream, clock: clock)

        #expect(await outcome(cache) == .failure(.upstreamUnavailable))
        var calls = 1
        for backoff in [1, 2, 4, 8, 16, 30, 30, 30] {
            // Every caller inside the backoff is answered at once, without an upstream call.
            for _ in 0..<50 {
                #expect(await outcome(cache) == .failure(.coolingDown(retryAfterSeconds: backoff)))
            }
            clock.advance(by: .milliseconds(backoff * 1000 - 1))
            #expect(await outcome(cache) == .failure(.coolingDown(retryAfterSeconds: 1)))
            #expect(await upstream.calls == calls)
            // The backoff has passed: the next caller is the one probe.
            clock.advance(by: .milliseconds(1))
            #expect(await outcome(cache) == .failure(.upstreamUnavailable))
            calls += 1
            #expect(await upstream.calls == calls)
        }
        let error = MossError.coolingDown(retryAfterSeconds: 30)
        #expect(error.httpStatus == 503)
        #expect(error.errorCode == "unavailable")
        #expect(error.retryAfterSeconds == 30)
    }

    @Test("Retry-After is the rest of the backoff in whole seconds, rounded up")
    func retryAfterCountsDown() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted(always: .failure(.upstreamFailed(status: 500)))
        let cache = makeCache(upstream, clock: clock)
        _ = await outcome(cache)
        clock.advance(by: .seconds(1))
        _ = await outcome(cache)  // second failure: 2 s
        #expect(await outcome(cache) == .failure(.coolingDown(retryAfterSeconds: 2)))
        clock.advance(by: .milliseconds(999))
        #expect(await outcome(cache) == .failure(.coolingDown(retryAfterSeconds: 2)))
        clock.advance(by: .milliseconds(1))
        #expect(await outcome(cache) == .failure(.coolingDown(retryAfterSeconds: 1)))
    }

    @Test("while the single probe runs, every other caller is answered at once")
    func oneProbe() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted([
            .failure(.upstreamUnavailable), .success(.init(token: "tok", expiresIn: 3600)),
        ])
        let cache = makeCache(upstream, clock: clock)
        #expect(await outcome(cache) == .failure(.upstreamUnavailable))

        clock.advance(by: .seconds(1))
        await upstream.close()
        let probe = Task { await outcome(cache) }
        while await upstream.calls < 2 { await Task.yield() }
        for _ in 0..<200 {
            #expect(await outcome(cache) == .failure(.coolingDown(retryAfterSeconds: 1)))
        }
        #expect(await upstream.calls == 2)
        await upstream.open()
        #expect(await probe.value == .success(VendedToken(token: "tok", expiresIn: 3540)))
        #expect(await outcome(cache) == .success(VendedToken(token: "tok", expiresIn: 3540)))
        #expect(await upstream.calls == 2)
    }

    @Test("a success resets the backoff to 1 s")
    func successResets() async throws {
        let clock = MossTestClock()
        let failure: Result<MossProjectToken, MossError> = .failure(.upstreamUnavailable)
        let upstream = FakeUpstreamScripted([
            failure, failure, failure, .success(.init(token: "tok", expiresIn: 3600)), failure,
        ])
        let cache = makeCache(upstream, clock: clock)
        _ = await outcome(cache)
        clock.advance(by: .seconds(1))
        _ = await outcome(cache)
        clock.advance(by: .seconds(2))
        _ = await outcome(cache)
        #expect(await outcome(cache) == .failure(.coolingDown(retryAfterSeconds: 4)))
        clock.advance(by: .seconds(4))
        #expect(try await cache.token().token == "tok")

        clock.advance(by: .seconds(3540))
        #expect(await outcome(cache) == .failure(.upstreamUnavailable))
        #expect(await outcome(cache) == .failure(.coolingDown(retryAfterSeconds: 1)))
        #expect(await upstream.calls == 5)
    }

    @Test("a cached token is still served during a backoff started by nobody waiting")
    func backgroundFailureStartsNoBackoff() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted([
            .success(.init(token: "tok-1", expiresIn: 3600)), .failure(.upstreamUnavailable),
            .success(.init(token: "tok-2", expiresIn: 3600)),
        ])
        let cache = MossTokenCache(
            upstream: upstream, refreshAhead: .seconds(120),
            logger: Logger(label: "test.moss", factory: { _ in SwiftLogNoOpLogHandler() }), now: { clock.now })
        _ = try await cache.token()
        clock.advance(by: .seconds(3430))
        #expect(cache.cachedToken()?.token == "tok-1")
        while cache.statistics.failures < 1 { await Task.yield() }
        clock.advance(by: .seconds(110))
        #expect(try await cache.token().token == "tok-2")
    }
}
