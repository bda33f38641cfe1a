import JWT
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ProviderKeyCache {
    /// Fetches `url` once and installs the usable keys, or keeps what was there; always clears `inFlight`.
    func refresh(url: String) async {
        let document: JWKSDocument
        do {
            document = try await fetcher.fetch(url)
        } catch {
            let holding = finish(url: url, installing: nil)
            onEvent(.fetchFailed(url: url, error: error, holdingKeys: holding))
            return
        }
        let parsed: (keys: JWTKeySet, skipped: [SkippedJWK])
        do {
            parsed = try JWTKeySet.verifying(jwks: document.body)
        } catch {
            let holding = finish(url: url, installing: nil)
            onEvent(.unusableKeySet(url: url, reason: error.description, holdingKeys: holding))
            return
        }
        let lifetime = limits.lifetime(maxAge: document.maxAge)
        _ = finish(url: url, installing: (parsed.keys, lifetime))
        onEvent(.fetched(url: url, keyCount: parsed.keys.keys.count, skipped: parsed.skipped, lifetime: lifetime))
    }

    /// Ends the fetch of `url`: installs `keys` (fresh for `lifetime` seconds from now) when given.
    ///
    /// - Returns: whether the entry holds keys afterwards.
    private func finish(url: String, installing keys: (set: JWTKeySet, lifetime: Int)?) -> Bool {
        let now = clock()
        return entries.withLock { entries in
            var entry = entries[url, default: Entry()]
            if let keys {
                entry.keys = keys.set
                entry.expiresAt = now.addingTimeInterval(TimeInterval(keys.lifetime))
            }
            entry.inFlight = nil
            entries[url] = entry
            return entry.keys != nil
        }
    }

    /// How many callers wait for the fetch of `url` under way (tests use it to line up concurrent callers).
    package func waitingCallers(url: String) -> Int {
        entries.withLock { $0[url]?.waiters ?? 0 }
    }

    /// How many fetches of `url` are under way: 0 or 1.
    package func fetchesInFlight(url: String) -> Int {
        entries.withLock { $0[url]?.inFlight == nil ? 0 : 1 }
    }
}
