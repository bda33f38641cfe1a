public import AuthAPI
public import Logging
import Synchronization

/// Vends the Moss project token to every caller, fetching it upstream once per lifetime.
///
/// - The cached token is served while `now < fetchStart + expiresIn − refreshMargin` (60 s by default), with
///   `expiresIn` = the remaining time until that point in whole seconds (rounded down, at least 1). The lifetime
///   is counted from when the upstream request was *sent*, which errs on the early side.
/// - Past that point the next caller starts one refresh; every caller arriving while it runs waits for that same
///   refresh (single flight), so a cold start with a thousand callers makes one upstream request.
/// - A failed refresh that callers waited for hands its error to every one of them and starts a backoff: for
///   1 s after the first failure, doubling with each further one up to 30 s (``maximumBackoff``), callers that
///   find no servable token are answered ``MossError/coolingDown(retryAfterSeconds:)`` (503 with `Retry-After`)
///   at once instead of waiting on the upstream. Once the backoff has passed, the next caller starts one probe
///   (and waits for it); callers arriving while the probe runs are answered at once too. A probe's success ends
///   the backoff; its failure doubles it. A stale token is never served past its refresh point.
/// - A token whose upstream lifetime is not longer than the margin could never be served under the rule above: it
///   is handed to the callers of that refresh only, uncached, with its real remaining lifetime as `expiresIn`
///   (logged at warning). One that is already expired when the answer arrives (less than 1 s left) is
///   ``MossError/badUpstreamResponse`` (502).
/// - Optional refresh-ahead (`refreshAhead` > 0, off by default): from `refreshAhead` before the refresh point, a
///   hit also starts one background refresh while the current token keeps being served, so callers never wait at
///   the boundary and an upstream outage shorter than the window goes unnoticed. Background attempts start at
///   most once per ``backgroundRetryInterval``, so a failing upstream is not hammered.
///
/// Thread-safe. ``cachedToken()`` is the synchronous fast path (one uncontended `Mutex` acquisition, no task or
/// actor hop); call it first and fall back to ``token()`` when it returns `nil`:
///
/// ```swift
/// let cache = MossTokenCache(upstream: MossHTTPUpstream(configuration: configuration), logger: logger)
/// let vended = try await cache.token()  // {"token", "expiresIn"}; MossError maps to 502/503
/// ```
public final class MossTokenCache: Sendable {
    /// How long before the upstream expiry the cached token stops being served: 60 s (the Moss SDK's margin).
    public static let defaultRefreshMargin: Duration = .seconds(60)

    /// The least time between two background (refresh-ahead) attempts: 5 s.
    public static let backgroundRetryInterval: Duration = .seconds(5)

    /// The backoff after the first failed refresh callers waited for: 1 s; it doubles with each further failure.
    public static let initialBackoff: Duration = .seconds(1)

    /// The longest backoff: 30 s.
    public static let maximumBackoff: Duration = .seconds(30)

    /// Refresh counts, for metrics.
    public struct Statistics: Sendable, Equatable {
        /// Refreshes that produced a token.
        public var refreshes: Int
        /// Refreshes that failed (each failure is one upstream attempt).
        public var failures: Int
    }

    /// The margin in use; see ``defaultRefreshMargin``.
    public let refreshMargin: Duration
    /// How long before the refresh point a hit starts a background refresh; zero when off.
    public let refreshAhead: Duration
    private let upstream: any MossUpstream
    private let logger: Logger
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())

    /// Creates an empty cache; nothing is fetched until the first call to ``token()``.
    ///
    /// - Parameters:
    ///   - upstream: where tokens come from, usually ``MossHTTPUpstream``.
    ///   - refreshMargin: see ``defaultRefreshMargin``. Must not be negative.
    ///   - refreshAhead: see the type's documentation. Default: zero (off, the contract's exact behaviour); 120 s
    ///     keeps clients that subtract their own 60 s margin from ever receiving `expiresIn` ≤ 60. Must not be
    ///     negative.
    ///   - logger: refresh outcomes go here (`debug` on success, `info` on failure, `warning` for an upstream token
    ///     too short-lived to cache); never a token or key.
    ///   - now: the clock, injectable for tests. Default: `ContinuousClock.now`.
    public init(
        upstream: any MossUpstream,
        refreshMargin: Duration = MossTokenCache.defaultRefreshMargin,
        refreshAhead: Duration = .zero,
        logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        precondition(refreshMargin >= .zero, "the Moss refresh margin must not be negative")
        precondition(refreshAhead >= .zero, "the Moss refresh-ahead window must not be negative")
        self.upstream = upstream
        self.refreshMargin = refreshMargin
        self.refreshAhead = refreshAhead
        self.logger = logger
        self.clock = now
    }

    /// The cached token if it may still be served now; never waits (with refresh-ahead on, it may start a
    /// background refresh).
    public func cachedToken() -> VendedToken? {
        cachedToken(now: clock())
    }

    /// The cached token if it may still be served at `now`; never waits (with refresh-ahead on, it may start a
    /// background refresh). Pass an instant the caller already has (e.g. the request's arrival) to save a clock
    /// read.
    public func cachedToken(now: ContinuousClock.Instant) -> VendedToken? {
        state.withLock { state in
            guard let vended = state.entry?.vend(at: now) else { return nil }
            startBackgroundRefreshIfDue(&state, now: now)
            return vended
        }
    }

    /// The cached token, or a fresh one after waiting for the (shared) refresh.
    ///
    /// Waiting is bounded by the upstream's timeout; cancelling the caller does not cancel the shared refresh.
    /// After a failed refresh, no caller waits until the backoff has passed (see the type's documentation).
    ///
    /// - Throws: the ``MossError`` of the refresh this call waited for, or
    ///   ``MossError/coolingDown(retryAfterSeconds:)`` during the backoff.
    public func token() async throws(MossError) -> VendedToken {
        let now = clock()
        let lookup = state.withLock { state -> Lookup in
            if let vended = state.entry?.vend(at: now) {
                startBackgroundRefreshIfDue(&state, now: now)
                return .hit(vended)
            }
            if let retryAt = state.retryAt, state.flight != nil || now < retryAt {
                return .coolingDown(retryAfterSeconds: Self.wholeSecondsUp(retryAt - now))
            }
            if var flight = state.flight {
                flight.waiters += 1
                state.flight = flight
                return .wait(flight.task)
            }
            return .wait(startFlight(&state, waiters: 1))
        }
        switch lookup {
        case .hit(let vended):
            return vended
        case .coolingDown(let seconds):
            throw .coolingDown(retryAfterSeconds: seconds)
        case .wait(let task):
            let entry = try await task.value.get()
            if let vended = entry.vend(at: clock()) { return vended }
            // A short-lived token that ran out while this caller resumed: never hand out `expiresIn` ≤ 0.
            guard entry.cached else { throw .badUpstreamResponse }
            // A fresh cached token is served even if the refresh outlived its serving window: its real expiry is
            // still at least `refreshMargin` away.
            return VendedToken(token: entry.token, expiresIn: 1)
        }
    }

    /// `duration` in whole seconds, rounded up, at least 1 (for `Retry-After`).
    static func wholeSecondsUp(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }

    /// The backoff after `failures` consecutive failed refreshes: 1 s, 2 s, 4 s, … up to ``maximumBackoff``.
    static func backoff(afterFailures failures: Int) -> Duration {
        let doublings = min(max(failures - 1, 0), 5)
        return min(initialBackoff * (1 << doublings), maximumBackoff)
    }

    /// Current refresh counts.
    public var statistics: Statistics {
        state.withLock { Statistics(refreshes: $0.refreshes, failures: $0.failures) }
    }

    /// Callers waiting on the refresh in flight (0 when none); lets tests know when everyone has joined.
    var waitingCallers: Int {
        state.withLock { $0.flight?.waiters ?? 0 }
    }

    /// Starts the refresh task and records it as the flight in progress. Called with the lock held; the task's own
    /// first use of the lock therefore waits until the flight is recorded.
    private func startFlight(_ state: inout State, waiters: Int) -> Task<Result<Entry, MossError>, Never> {
        let id = state.nextFlightID
        state.nextFlightID &+= 1
        let task = Task { await self.refresh(flight: id) }
        state.flight = Flight(id: id, task: task, waiters: waiters)
        return task
    }

    /// On a hit inside the refresh-ahead window, starts a background refresh unless one runs or one started (or
    /// failed) less than ``backgroundRetryInterval`` ago. Called with the lock held.
    private func startBackgroundRefreshIfDue(_ state: inout State, now: ContinuousClock.Instant) {
        guard refreshAhead > .zero, state.flight == nil, let entry = state.entry, now >= entry.aheadAt,
            state.backgroundRetryAt.map({ now >= $0 }) ?? true
        else { return }
        state.backgroundRetryAt = now + Self.backgroundRetryInterval
        _ = startFlight(&state, waiters: 0)
    }

    /// One upstream exchange, run in its own task shared by all waiters; publishes the outcome.
    private func refresh(flight id: UInt64) async -> Result<Entry, MossError> {
        let started = clock()
        let result: Result<Entry, MossError>
        do {
            let fetched = try await upstream.fetchProjectToken()
            result = validate(fetched, fetchedAt: started, answeredAt: clock())
        } catch {
            result = .failure(error)
        }
        let backoff = state.withLock { state -> Duration? in
            let waited = state.flight?.id == id && (state.flight?.waiters ?? 0) > 0
            if state.flight?.id == id { state.flight = nil }
            switch result {
            case .success(let entry):
                if entry.cached { state.entry = entry }
                state.refreshes += 1
                state.consecutiveFailures = 0
                state.retryAt = nil
                return nil
            case .failure:
                state.failures += 1
                let now = clock()
                if refreshAhead > .zero { state.backgroundRetryAt = now + Self.backgroundRetryInterval }
                // Only a refresh somebody waited for starts the backoff: a failed background attempt is retried
                // on its own interval while the current token is still served.
                guard waited else { return nil }
                state.consecutiveFailures += 1
                let backoff = Self.backoff(afterFailures: state.consecutiveFailures)
                state.retryAt = now + backoff
                return backoff
            }
        }
        switch result {
        case .success(let entry) where entry.cached:
            logger.debug(
                "Moss project token refreshed",
                metadata: ["moss.serve_seconds": "\((entry.refreshAt - started).components.seconds)"]
            )
        case .success(let entry):
            logger.warning(
                "Moss project token lives no longer than the refresh margin; served uncached",
                metadata: [
                    "moss.expires_in": "\((entry.refreshAt - started).components.seconds)",
                    "moss.refresh_margin": "\(refreshMargin.components.seconds)",
                ]
            )
        case .failure(let error):
            var metadata: Logger.Metadata = ["moss.error": "\(error)"]
            if let backoff { metadata["moss.backoff_seconds"] = "\(backoff.components.seconds)" }
            logger.info("Moss project token refresh failed", metadata: metadata)
        }
        return result
    }

    /// A cacheable entry when the lifetime exceeds the margin; otherwise an uncached one that expires at the real
    /// expiry, provided at least 1 s of it is left when the answer arrives.
    private func validate(
        _ fetched: MossProjectToken, fetchedAt started: ContinuousClock.Instant,
        answeredAt answered: ContinuousClock.Instant
    ) -> Result<Entry, MossError> {
        let lifetime = Duration.seconds(fetched.expiresIn)
        guard fetched.isPlausible else { return .failure(.badUpstreamResponse) }
        guard lifetime > refreshMargin else {
            let expiresAt = started + lifetime
            guard expiresAt - answered >= .seconds(1) else { return .failure(.badUpstreamResponse) }
            return .success(Entry(token: fetched.token, refreshAt: expiresAt, aheadAt: expiresAt, cached: false))
        }
        let refreshAt = started + lifetime - refreshMargin
        return .success(
            Entry(token: fetched.token, refreshAt: refreshAt, aheadAt: refreshAt - refreshAhead, cached: true))
    }
}

extension MossTokenCache {
    /// A token, the instant it stops being served, and the instant hits start a background refresh.
    fileprivate struct Entry: Sendable {
        var token: String
        /// For an uncached (short-lived) token: its real expiry.
        var refreshAt: ContinuousClock.Instant
        var aheadAt: ContinuousClock.Instant
        /// False for a token that lives no longer than the margin: served to its refresh's callers only.
        var cached: Bool

        /// The token with its remaining serving time in whole seconds (≥ 1), or `nil` once `now` reaches
        /// `refreshAt`.
        func vend(at now: ContinuousClock.Instant) -> VendedToken? {
            guard now < refreshAt else { return nil }
            return VendedToken(token: token, expiresIn: max(1, Int((refreshAt - now).components.seconds)))
        }
    }

    fileprivate struct Flight {
        var id: UInt64
        var task: Task<Result<Entry, MossError>, Never>
        var waiters: Int
    }

    fileprivate struct State {
        var entry: Entry?
        var flight: Flight?
        var nextFlightID: UInt64 = 0
        /// No background refresh starts before this instant (refresh-ahead only).
        var backgroundRetryAt: ContinuousClock.Instant?
        /// Failed refreshes callers waited for since the last success.
        var consecutiveFailures = 0
        /// During a backoff: when the next probe may start; `nil` when the last refresh succeeded.
        var retryAt: ContinuousClock.Instant?
        var refreshes = 0
        var failures = 0
    }

    fileprivate enum Lookup {
        case hit(VendedToken)
        case coolingDown(retryAfterSeconds: Int)
        case wait(Task<Result<Entry, MossError>, Never>)
    }
}
