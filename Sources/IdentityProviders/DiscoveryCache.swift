import Synchronization

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Providers' discovery documents, fetched through an `OAuthHTTPClient` and kept in memory, with the rules of
/// `ProviderKeyCache`:
/// - a document is kept for its `Cache-Control` max-age clamped to 5 minutes–24 hours (1 hour without one);
/// - concurrent callers share one fetch (single flight);
/// - a failed fetch (transport, non-200, a refused document) is retried at most once per `refetchInterval`
///   (1 minute), and meanwhile the last good document keeps serving for up to `staleGrace` (1 hour) past its
///   expiry; with nothing to serve, callers get `BrowserSignInFailure.providerUnavailable(retryAfter:)`.
///
/// Entries are per discovery URL and expected issuer. Safe to share between tasks (state behind a `Mutex`); the
/// clock is injected so tests need no sleeps.
public final class DiscoveryCache: Sendable {
    /// What the cache did, for the caller's log and metrics (never bodies).
    public enum Event: Sendable, Equatable {
        /// A document was fetched and accepted, kept for `lifetime` seconds.
        case fetched(url: String, lifetime: Int)
        /// A fetch failed or its document was refused; `holdingDocument` tells whether an earlier one is kept.
        case fetchFailed(url: String, reason: String, holdingDocument: Bool)
    }

    struct Entry {
        var document: OIDCDiscoveryDocument?
        var expiresAt = Date.distantPast
        var lastAttempt: Date?
        var inFlight: Task<Void, Never>?
        var waiters = 0
    }

    enum Step {
        case use(OIDCDiscoveryDocument)
        case fail(Int)
        case wait(Task<Void, Never>)
    }

    let client: any OAuthHTTPClient
    /// The limits in force (the same shape and defaults as the key cache's).
    public let limits: ProviderKeyCache.Limits
    let clock: @Sendable () -> Date
    let onEvent: @Sendable (Event) -> Void
    let entries = Mutex<[String: Entry]>([:])

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - client: Fetches the documents (libcurl in the server, a fake in tests).
    ///   - limits: Default: `ProviderKeyCache.Limits.default` (5 min–24 h, 1 h default, 1 min retry, 1 h stale).
    ///   - clock: Default: the system clock.
    ///   - onEvent: Told of every fetch and its outcome. Default: ignores them.
    public init(
        client: any OAuthHTTPClient, limits: ProviderKeyCache.Limits = .default,
        clock: @escaping @Sendable () -> Date = { Date() }, onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.client = client
        self.limits = limits
        self.clock = clock
        self.onEvent = onEvent
    }

    /// The document at `url`, whose `issuer` must be `issuer`.
    ///
    /// - Throws: `BrowserSignInFailure.providerUnavailable(retryAfter:)` when no acceptable document is held (or
    ///   only one past its stale grace) and none can be fetched now.
    public func document(url: String, issuer: String) async throws(BrowserSignInFailure) -> OIDCDiscoveryDocument {
        let key = "\(issuer) \(url)"
        var fetched = false
        while true {
            let now = clock()
            let step = entries.withLock { entries in
                decide(&entries[key, default: Entry()], key: key, url: url, issuer: issuer, now: now, fetched: fetched)
            }
            switch step {
            case .use(let document): return document
            case .fail(let retryAfter): throw .providerUnavailable(retryAfter: retryAfter)
            case .wait(let task):
                await task.value
                entries.withLock { $0[key]?.waiters -= 1 }
                fetched = true
            }
        }
    }

    private func decide(
        _ entry: inout Entry, key: String, url: String, issuer: String, now: Date, fetched: Bool
    ) -> Step {
        if let document = entry.document, now < entry.expiresAt { return .use(document) }
        if !fetched {
            if let task = entry.inFlight {
                entry.waiters += 1
                return .wait(task)
            }
            if limits.mayFetch(lastAttempt: entry.lastAttempt, now: now) {
                entry.lastAttempt = now
                let task = Task { await self.refresh(key: key, url: url, issuer: issuer) }
                entry.inFlight = task
                entry.waiters += 1
                return .wait(task)
            }
        }
        if let document = entry.document, limits.servesStale(expiresAt: entry.expiresAt, now: now) {
            return .use(document)
        }
        return .fail(limits.retryAfter(lastAttempt: entry.lastAttempt, now: now))
    }

    /// One fetch: installs the document or records the failure, then clears `inFlight`.
    private func refresh(key: String, url: String, issuer: String) async {
        let outcome: Result<(OIDCDiscoveryDocument, Int), DiscoveryFetchFailure>
        do throws(OAuthHTTPError) {
            let response = try await client.get(url, bearer: nil)
            if response.status != 200 {
                outcome = .failure(DiscoveryFetchFailure(reason: "HTTP \(response.status)"))
            } else {
                do throws(DiscoveryError) {
                    let document = try OIDCDiscoveryDocument.parse(
                        response.body, expectedIssuer: issuer, discoveryURL: url)
                    let maxAge = response.cacheControl.flatMap(JWKSDocument.maxAge(cacheControl:))
                    outcome = .success((document, limits.lifetime(maxAge: maxAge)))
                } catch {
                    outcome = .failure(DiscoveryFetchFailure(reason: error.description))
                }
            }
        } catch {
            outcome = .failure(DiscoveryFetchFailure(reason: error.description))
        }
        let now = clock()
        let holding = entries.withLock { entries -> Bool in
            var entry = entries[key, default: Entry()]
            entry.inFlight = nil
            if case .success((let document, let lifetime)) = outcome {
                entry.document = document
                entry.expiresAt = now.addingTimeInterval(TimeInterval(lifetime))
            }
            entries[key] = entry
            return entry.document != nil
        }
        switch outcome {
        case .success((_, let lifetime)): onEvent(.fetched(url: url, lifetime: lifetime))
        case .failure(let failure): onEvent(.fetchFailed(url: url, reason: failure.reason, holdingDocument: holding))
        }
    }
}

extension DiscoveryCache {
    /// How many callers wait for the fetch of `url` (for `issuer`) under way; tests line up callers with it.
    package func waitingCallers(url: String, issuer: String) -> Int {
        entries.withLock { $0["\(issuer) \(url)"]?.waiters ?? 0 }
    }
}

/// A failed discovery fetch, for the event.
struct DiscoveryFetchFailure: Error {
    var reason: String
}
