public import JWT
import Synchronization

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The signing keys of identity providers, fetched from their JWK Set URLs and kept in memory.
///
/// One entry per key URL (providers that share a URL share its keys and its fetches):
/// - Keys are kept for the document's `Cache-Control` max-age, clamped to `Limits.minimumMaxAge`–`maximumMaxAge`
///   (5 minutes–24 hours); without a max-age, `Limits.defaultMaxAge` (1 hour). A warm cache makes no request.
/// - A `kid` not in the set triggers one refetch (a provider rotated its keys), at most once per
///   `Limits.refetchInterval` (1 minute) per URL, so tokens with made-up `kid`s cannot make tokenvend hammer the
///   provider; a second unknown `kid` within the minute is refused without a request.
/// - Concurrent callers share one fetch (single flight): the first starts it, the others wait for its outcome.
/// - When a refresh fails, the keys last fetched keep serving for up to `Limits.staleGrace` (1 hour) past their
///   expiry. With no keys at all (or only keys past that hour) and the provider unreachable, callers get
///   `IDTokenFailure.providerUnavailable(retryAfter:)`: the seconds until the next attempt is allowed.
/// - Keys that `JWTKeySet.verifying(jwks:)` skips (encryption keys, unsupported algorithms…) are reported through
///   `onEvent`, never fatal; a document with no usable key counts as a failed fetch.
///
/// Safe to share between tasks (the state is behind a `Mutex`). The clock is injected so tests need no sleeps.
///
/// ```swift
/// let cache = ProviderKeyCache(fetcher: jwksFetcher) { event in logger.info("\(event)") }  // libcurl in TokenService
/// let verifier = IDTokenVerifier(provider: try .apple(audiences: ["com.example.app"]), keys: cache)
/// ```
public final class ProviderKeyCache: Sendable {
    /// The cache's time limits, in seconds; each default is written on its property.
    public struct Limits: Sendable, Equatable {
        /// The shortest time keys are kept, whatever the provider's max-age says. Default: 300 (5 minutes).
        public var minimumMaxAge: Int
        /// The longest time keys are kept. Default: 86 400 (24 hours).
        public var maximumMaxAge: Int
        /// How long keys are kept when the document has no max-age. Default: 3 600 (1 hour).
        public var defaultMaxAge: Int
        /// The least time between two fetches of one URL (unknown `kid`, or retrying a provider that is down).
        /// Default: 60.
        public var refetchInterval: Int
        /// How long past their expiry keys keep serving while the provider cannot be reached. Default: 3 600.
        public var staleGrace: Int

        /// Creates limits; every parameter has the default documented on its property.
        ///
        /// - Precondition: `0 < minimumMaxAge ≤ defaultMaxAge ≤ maximumMaxAge`, `refetchInterval > 0` and
        ///   `staleGrace ≥ 0` (0: stale keys never serve). A violation is a programmer error.
        public init(
            minimumMaxAge: Int = 300, maximumMaxAge: Int = 86_400, defaultMaxAge: Int = 3_600,
            refetchInterval: Int = 60, staleGrace: Int = 3_600
        ) {
            precondition(minimumMaxAge > 0, "ProviderKeyCache.Limits: minimumMaxAge must be positive")
            precondition(minimumMaxAge <= maximumMaxAge, "ProviderKeyCache.Limits: minimumMaxAge > maximumMaxAge")
            precondition(
                (minimumMaxAge...maximumMaxAge).contains(defaultMaxAge),
                "ProviderKeyCache.Limits: defaultMaxAge outside minimumMaxAge...maximumMaxAge")
            precondition(refetchInterval > 0, "ProviderKeyCache.Limits: refetchInterval must be positive")
            precondition(staleGrace >= 0, "ProviderKeyCache.Limits: staleGrace must not be negative")
            self.minimumMaxAge = minimumMaxAge
            self.maximumMaxAge = maximumMaxAge
            self.defaultMaxAge = defaultMaxAge
            self.refetchInterval = refetchInterval
            self.staleGrace = staleGrace
        }

        /// The documented defaults.
        public static let `default` = Limits()

        /// How long keys from a document with `maxAge` are kept.
        public func lifetime(maxAge: Int?) -> Int {
            guard let maxAge else { return defaultMaxAge }
            return min(max(maxAge, minimumMaxAge), maximumMaxAge)
        }

        /// Whether a fetch of one URL may start at `now`: never within ``refetchInterval`` of the last attempt
        /// (a clock set back allows one). The key cache's and the discovery cache's one throttle.
        public func mayFetch(lastAttempt: Date?, now: Date) -> Bool {
            guard let lastAttempt else { return true }
            let elapsed = now.timeIntervalSince(lastAttempt)
            return elapsed < 0 || elapsed >= TimeInterval(refetchInterval)
        }

        /// Seconds until ``mayFetch(lastAttempt:now:)`` allows the next fetch, from 1 to ``refetchInterval`` (the
        /// `retryAfter` of an unavailable provider).
        public func retryAfter(lastAttempt: Date?, now: Date) -> Int {
            guard let lastAttempt else { return max(1, refetchInterval) }
            let remaining = TimeInterval(refetchInterval) - now.timeIntervalSince(lastAttempt)
            return max(1, min(refetchInterval, Int(remaining.rounded(.up))))
        }

        /// Whether what expired at `expiresAt` may still serve at `now`, when no fresh copy can be had: up to
        /// ``staleGrace`` past its expiry (keys and discovery documents alike).
        public func servesStale(expiresAt: Date, now: Date) -> Bool {
            now < expiresAt.addingTimeInterval(TimeInterval(staleGrace))
        }
    }

    /// What the cache did, for the caller's log and metrics. Texts never hold key material or response bodies.
    public enum Event: Sendable, Equatable {
        /// A key set was fetched and installed: its usable keys' count, the keys skipped, and the clamped lifetime
        /// in seconds.
        case fetched(url: String, keyCount: Int, skipped: [SkippedJWK], lifetime: Int)
        /// A fetch failed; `holdingKeys` tells whether earlier keys are still kept (stale keys may serve).
        case fetchFailed(url: String, error: JWKSFetchError, holdingKeys: Bool)
        /// The document was fetched but holds no usable key (or is not a JWK Set); treated as a failed fetch.
        case unusableKeySet(url: String, reason: String, holdingKeys: Bool)
    }

    /// One key URL's state.
    struct Entry {
        var keys: JWTKeySet?
        /// When `keys` stop being fresh.
        var expiresAt = Date.distantPast
        /// When the last fetch started.
        var lastAttempt: Date?
        /// The fetch under way, which callers wait for instead of starting their own.
        var inFlight: Task<Void, Never>?
        /// Callers waiting for `inFlight` (observed by tests).
        var waiters = 0
    }

    /// What a caller does next, decided under the lock.
    enum Step: Sendable {
        case use(JWTKeySet)
        case fail(IDTokenFailure)
        case wait(Task<Void, Never>)
    }

    let fetcher: any JWKSFetching
    /// The limits in force.
    public let limits: Limits
    let clock: @Sendable () -> Date
    let onEvent: @Sendable (Event) -> Void
    let entries = Mutex<[String: Entry]>([:])

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - fetcher: Fetches JWK Sets (libcurl in the server, a fake in tests).
    ///   - limits: Default: `Limits.default`.
    ///   - clock: The current time. Default: the system clock.
    ///   - onEvent: Told of every fetch and its outcome, including skipped keys; called outside the lock, from
    ///     the fetching task. Default: ignores them.
    public init(
        fetcher: any JWKSFetching,
        limits: Limits = .default,
        clock: @escaping @Sendable () -> Date = { Date() },
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.fetcher = fetcher
        self.limits = limits
        self.clock = clock
        self.onEvent = onEvent
    }

    /// A key set of `provider` that holds `kid`, fetching or refetching as the rules above allow.
    ///
    /// - Throws: `IDTokenFailure.rejected(.unknownKID)` when the set (even after the refetch allowed) has no such
    ///   `kid`; `.providerUnavailable(retryAfter:)` when no usable keys are held and the provider cannot be fetched.
    public func keys(for provider: IdentityProvider, kid: String) async throws(IDTokenFailure) -> JWTKeySet {
        let url = provider.jwksURL
        var fetched = false
        while true {
            let now = clock()
            let step = entries.withLock { entries in
                decide(&entries[url, default: Entry()], url: url, kid: kid, now: now, fetched: fetched)
            }
            switch step {
            case .use(let keys): return keys
            case .fail(let failure): throw failure
            case .wait(let task):
                await task.value
                entries.withLock { $0[url]?.waiters -= 1 }
                // One fetch per call at most: after it, `decide` never waits or fetches again.
                fetched = true
            }
        }
    }

    /// The next step for a caller that wants `kid`; starts the fetch when one is due. Runs under the lock.
    private func decide(_ entry: inout Entry, url: String, kid: String, now: Date, fetched: Bool) -> Step {
        let fresh = entry.keys != nil && now < entry.expiresAt
        if fresh, let keys = entry.keys, keys.key(for: kid) != nil { return .use(keys) }
        if fetched { return afterFetch(entry, kid: kid, now: now) }
        if let task = entry.inFlight {
            entry.waiters += 1
            return .wait(task)
        }
        guard limits.mayFetch(lastAttempt: entry.lastAttempt, now: now) else {
            return afterFetch(entry, kid: kid, now: now)
        }
        entry.lastAttempt = now
        let task = Task { await self.refresh(url: url) }
        entry.inFlight = task
        entry.waiters += 1
        return .wait(task)
    }

    /// The answer once no (further) fetch is allowed: fresh or stale keys if they hold `kid`, else the failure.
    private func afterFetch(_ entry: Entry, kid: String, now: Date) -> Step {
        guard let keys = entry.keys else {
            return .fail(.providerUnavailable(retryAfter: limits.retryAfter(lastAttempt: entry.lastAttempt, now: now)))
        }
        if limits.servesStale(expiresAt: entry.expiresAt, now: now) {
            return keys.key(for: kid) != nil ? .use(keys) : .fail(.rejected(.unknownKID))
        }
        return .fail(.providerUnavailable(retryAfter: limits.retryAfter(lastAttempt: entry.lastAttempt, now: now)))
    }
}
