import AuthAPI
import InMemoryLogging
import Logging
import Synchronization
import Testing

@testable import TokenService

/// A hand-driven clock: time moves only when the test says so.
final class MossTestClock: Sendable {
    private let current = Mutex(ContinuousClock.now)

    var now: ContinuousClock.Instant { current.withLock { $0 } }

    func advance(by duration: Duration) {
        current.withLock { $0 += duration }
    }
}

private func projectToken(_ token: String, expiresIn: Int = 3600) -> Result<MossProjectToken, MossError> {
    .success(MossProjectToken(token: token, expiresIn: expiresIn))
}

private func makeCache(_ upstream: FakeUpstreamScripted, clock: MossTestClock) -> MossTokenCache {
    MossTokenCache(upstream: upstream, logger: Logger(label: "test.moss", factory: { _ in SwiftLogNoOpLogHandler() })) {
        clock.now
    }
}

/// Starts `count` concurrent `token()` calls and waits until all of them are waiting on the refresh in flight.
private func waitingCallers(
    _ count: Int,
    on cache: MossTokenCache
) async -> [Task<Result<VendedToken, MossError>, Never>] {
    var tasks: [Task<Result<VendedToken, MossError>, Never>] = []
    for _ in 0..<count {
        tasks.append(
            Task {
                do throws(MossError) { return .success(try await cache.token()) } catch { return .failure(error) }
            }
        )
    }
    while cache.waitingCallers < count { await Task.yield() }
    return tasks
}

@Suite struct MossTokenCacheTests {
    @Test("a cold start with a thousand concurrent callers makes exactly one upstream call")
    func coldStartCoalesces() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted(always: projectToken("tok-1"), gated: true)
        let cache = makeCache(upstream, clock: clock)

        let tasks = await waitingCallers(1000, on: cache)
        await upstream.open()
        for task in tasks {
            #expect(try await task.value.get() == VendedToken(token: "tok-1", expiresIn: 3540))
        }
        #expect(await upstream.calls == 1)
        #expect(cache.statistics == .init(refreshes: 1, failures: 0))
    }

    @Test("the synchronous fast path never fetches and is empty until the first refresh")
    func fastPathDoesNotFetch() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted(always: projectToken("tok-1"))
        let cache = makeCache(upstream, clock: clock)

        #expect(cache.cachedToken() == nil)
        #expect(await upstream.calls == 0)
        _ = try await cache.token()
        #expect(cache.cachedToken() == VendedToken(token: "tok-1", expiresIn: 3540))
    }

    @Test("a cached token is served without upstream calls until 60 s before it expires")
    func servesFromCacheWithinLifetime() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted([projectToken("tok-1"), projectToken("tok-2")])
        let cache = makeCache(upstream, clock: clock)

        _ = try await cache.token()
        for _ in 0..<100 { _ = try await cache.token() }
        clock.advance(by: .seconds(3539))
        #expect(try await cache.token() == VendedToken(token: "tok-1", expiresIn: 1))
        #expect(await upstream.calls == 1)

        clock.advance(by: .seconds(1))
        #expect(cache.cachedToken() == nil)
        #expect(try await cache.token() == VendedToken(token: "tok-2", expiresIn: 3540))
        #expect(await upstream.calls == 2)
    }

    @Test(
        "expiresIn is the remaining lifetime minus the margin, rounded down, at least 1",
        arguments: [
            (Duration.zero, 3540), (.milliseconds(1), 3539), (.milliseconds(500), 3539), (.seconds(1), 3539),
            (.seconds(3000), 540), (.seconds(3539), 1), (.milliseconds(3_539_999), 1),
        ]
    )
    func expiresInArithmetic(elapsed: Duration, expected: Int) async throws {
        let clock = MossTestClock()
        let cache = makeCache(FakeUpstreamScripted(always: projectToken("tok")), clock: clock)
        _ = try await cache.token()
        clock.advance(by: elapsed)
        #expect(cache.cachedToken()?.expiresIn == expected)
        #expect(try await cache.token().expiresIn == expected)
    }

    @Test("callers arriving after the refresh point share one refresh")
    func expiryRefreshesOnce() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted([projectToken("tok-1"), projectToken("tok-2")])
        let cache = makeCache(upstream, clock: clock)
        _ = try await cache.token()

        await upstream.close()
        clock.advance(by: .seconds(3540))
        let tasks = await waitingCallers(200, on: cache)
        await upstream.open()
        for task in tasks {
            #expect(try await task.value.get().token == "tok-2")
        }
        #expect(await upstream.calls == 2)
    }

    @Test("a failed refresh fails every current waiter and the first caller after the backoff starts a new one")
    func failureDoesNotPoison() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted(
            [.failure(.upstreamRejected(status: 401)), projectToken("tok-ok")],
            gated: true
        )
        let cache = makeCache(upstream, clock: clock)

        let tasks = await waitingCallers(50, on: cache)
        await upstream.open()
        for task in tasks {
            #expect(await task.value == .failure(.upstreamRejected(status: 401)))
        }
        #expect(cache.cachedToken() == nil)
        clock.advance(by: .seconds(1))
        #expect(try await cache.token() == VendedToken(token: "tok-ok", expiresIn: 3540))
        #expect(await upstream.calls == 2)
        #expect(cache.statistics == .init(refreshes: 1, failures: 1))
    }

    @Test("cancelling the caller that started a refresh does not cancel the refresh others wait on")
    func cancelledStarterDoesNotCancelRefresh() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted(always: projectToken("tok-1"), gated: true)
        let cache = makeCache(upstream, clock: clock)

        let tasks = await waitingCallers(2, on: cache)
        tasks[0].cancel()
        await upstream.open()
        for task in tasks {
            #expect(try await task.value.get().token == "tok-1")
        }
        #expect(await upstream.calls == 1)
    }

    @Test("a failed refresh at expiry does not keep serving the stale token, and recovers", .timeLimit(.minutes(1)))
    func failureAtExpiry() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted([
            projectToken("tok-1"), .failure(.upstreamUnavailable), projectToken("tok-2"),
        ])
        let cache = makeCache(upstream, clock: clock)
        _ = try await cache.token()
        clock.advance(by: .seconds(3545))

        await #expect(throws: MossError.upstreamUnavailable) { try await cache.token() }
        clock.advance(by: .seconds(1))
        #expect(try await cache.token().token == "tok-2")
        #expect(await upstream.calls == 3)
    }

    @Test(
        "an upstream lifetime not longer than the margin is served uncached with its real expiresIn",
        arguments: [1, 30, 60]
    )
    func lifetimeWithinMargin(expiresIn: Int) async throws {
        let clock = MossTestClock()
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "test.moss", factory: { _ in handler })
        let upstream = FakeUpstreamScripted([
            projectToken("short-1", expiresIn: expiresIn), projectToken("short-2", expiresIn: expiresIn),
            projectToken("long"),
        ])
        let cache = MossTokenCache(upstream: upstream, logger: logger, now: { clock.now })

        #expect(try await cache.token() == VendedToken(token: "short-1", expiresIn: expiresIn))
        #expect(cache.cachedToken() == nil)
        #expect(try await cache.token() == VendedToken(token: "short-2", expiresIn: expiresIn))
        #expect(try await cache.token() == VendedToken(token: "long", expiresIn: 3540))
        #expect(await upstream.calls == 3)
        let warnings = handler.entries.filter { $0.level == .warning }
        #expect(warnings.count == 2)
        #expect(warnings.allSatisfy { !"\($0.message) \($0.metadata)".contains("short-") })
    }

    @Test("a short-lived token's expiresIn counts from when the upstream request was sent")
    func shortLifetimeCountsFetchTime() async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted(always: projectToken("short", expiresIn: 30), gated: true)
        let cache = makeCache(upstream, clock: clock)

        let tasks = await waitingCallers(3, on: cache)
        while await upstream.calls < 1 { await Task.yield() }
        clock.advance(by: .milliseconds(10_500))
        await upstream.open()
        for task in tasks {
            #expect(try await task.value.get() == VendedToken(token: "short", expiresIn: 19))
        }
    }

    @Test(
        "a short-lived token already expired when the answer arrives is a bad response, never expiresIn ≤ 0",
        arguments: [Duration.seconds(30), .milliseconds(29_001), .seconds(45)]
    )
    func shortLifetimeAlreadyExpired(fetchTime: Duration) async throws {
        let clock = MossTestClock()
        let upstream = FakeUpstreamScripted(always: projectToken("short", expiresIn: 30), gated: true)
        let cache = makeCache(upstream, clock: clock)

        let tasks = await waitingCallers(1, on: cache)
        // The refresh reads its start time before calling the upstream: advance only once it has.
        while await upstream.calls < 1 { await Task.yield() }
        clock.advance(by: fetchTime)
        await upstream.open()
        #expect(await tasks[0].value == .failure(.badUpstreamResponse))
        #expect(cache.statistics == .init(refreshes: 0, failures: 1))
    }

    @Test("a lifetime of 61 s is served for its last second with expiresIn 1")
    func lifetimeJustOverMargin() async throws {
        let cache = makeCache(FakeUpstreamScripted(always: projectToken("tok", expiresIn: 61)), clock: MossTestClock())
        #expect(try await cache.token() == VendedToken(token: "tok", expiresIn: 1))
    }

    @Test("an implausible token from any upstream is refused", arguments: ["", "has space", "line\nbreak"])
    func implausibleToken(token: String) async throws {
        let cache = makeCache(FakeUpstreamScripted(always: projectToken(token)), clock: MossTestClock())
        await #expect(throws: MossError.badUpstreamResponse) { try await cache.token() }
    }

    @Test("refresh logs name the outcome but never the token")
    func logsNoToken() async throws {
        let clock = MossTestClock()
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test.moss", factory: { _ in handler })
        logger.logLevel = .trace
        let upstream = FakeUpstreamScripted([.failure(.upstreamFailed(status: 500)), projectToken("secret-tok-42")])
        let cache = MossTokenCache(upstream: upstream, logger: logger, now: { clock.now })

        await #expect(throws: MossError.upstreamFailed(status: 500)) { try await cache.token() }
        clock.advance(by: .seconds(1))
        _ = try await cache.token()
        let logged = handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(handler.entries.count == 2)
        #expect(logged.contains("upstreamFailed(status: 500)"))
        #expect(!logged.contains("secret-tok-42"))
    }
}
