import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Access tokens that already verified, keyed by their exact text, with their claims: a hit skips the
/// signature (47 µs for ES256, 77 µs for EdDSA) but never the clock or the session.
///
/// Only ``AccessTokenIssuer`` inserts, and only after the signature, the header and every claim check passed;
/// a token that differs in one byte is another key, so a tampered token can never hit. On a hit `exp`, `nbf`
/// and `iat` are checked again against the request's clock with the configured leeway; an entry past its
/// expiry is dropped then, or when its shard is swept. Session liveness is checked by the caller on every
/// request (`Authenticator`), cached or not, so a logout or a revocation still takes effect at once.
///
/// Memory is bounded: `capacity` entries spread over `shardCount` shards, each with its own lock, so the event
/// loops rarely contend. When a shard is full its expired entries go first; if that frees less than an eighth
/// of it, arbitrary entries go until seven eighths remain (a flood of fresh tokens evicts older ones, never
/// grows the map).
final class VerifiedTokenCache: Sendable {
    private struct Entry {
        let claims: AccessClaims
    }

    private final class Shard: Sendable {
        let entries = Mutex<[String: Entry]>([:])
    }

    /// The most entries held, across all shards.
    let capacity: Int
    private let perShard: Int
    private let shards: [Shard]
    /// Lookups answered from the cache (`tokenvend_access_token_cache_hits_total`).
    let hits = Atomic<UInt64>(0)
    /// Lookups that had to verify the signature (`tokenvend_access_token_cache_misses_total`).
    let misses = Atomic<UInt64>(0)

    /// A cache of at most `capacity` tokens.
    /// - Parameters:
    ///   - capacity: entries held at most. Default: 8192 (about 5 MB with 450-byte tokens).
    ///   - shardCount: independent locks. Default: 16.
    init(capacity: Int = 8_192, shardCount: Int = 16) {
        precondition(capacity > 0 && shardCount > 0)
        let shardCount = min(shardCount, capacity)
        self.perShard = max(1, capacity / shardCount)
        self.capacity = perShard * shardCount
        self.shards = (0..<shardCount).map { _ in Shard() }
    }

    /// The claims of `token` if it verified before and is still within `exp`, `nbf` and `iat` at `now` with
    /// `leeway` seconds of skew (the same comparisons as the JWT verifier); `nil` otherwise, and an expired entry
    /// is dropped.
    func claims(for token: String, now: Date, leeway: Int64) -> AccessClaims? {
        let time = now.timeIntervalSince1970
        let slack = Double(max(0, leeway))
        let found = shard(for: token).entries.withLock { entries -> AccessClaims? in
            guard let entry = entries[token] else { return nil }
            let claims = entry.claims
            guard time < Double(claims.expiresAt) + slack else {
                entries[token] = nil
                return nil
            }
            if let notBefore = claims.notBefore, time + slack < notBefore { return nil }
            guard Double(claims.issuedAt) <= time + slack else { return nil }
            return claims
        }
        if found == nil { misses.add(1, ordering: .relaxed) } else { hits.add(1, ordering: .relaxed) }
        return found
    }

    /// Remembers a token that has just verified, with its claims; `leeway` and `now` decide which entries of a
    /// full shard have expired.
    func insert(_ token: String, claims: AccessClaims, now: Date, leeway: Int64) {
        let time = now.timeIntervalSince1970
        let slack = Double(max(0, leeway))
        let limit = perShard
        shard(for: token).entries.withLock { entries in
            if entries[token] == nil, entries.count >= limit {
                entries = entries.filter { time < Double($0.value.claims.expiresAt) + slack }
                var excess = entries.count - (limit - max(1, limit / 8))
                while excess > 0, let victim = entries.first?.key {
                    entries[victim] = nil
                    excess -= 1
                }
            }
            entries[token] = Entry(claims: claims)
        }
    }

    /// How many tokens are held now (tests and metrics).
    var count: Int { shards.reduce(0) { $0 + $1.entries.withLock { $0.count } } }

    /// Whether `token` is held, whatever its times (tests).
    func contains(_ token: String) -> Bool { shard(for: token).entries.withLock { $0[token] != nil } }

    /// The shard of a token, from the last bytes of its signature (random for every algorithm here), so no
    /// hash of the whole token is needed to pick it.
    private func shard(for token: String) -> Shard {
        var mix: UInt32 = 0
        for byte in token.utf8.suffix(4) { mix = mix &* 31 &+ UInt32(byte) }
        return shards[Int(mix % UInt32(shards.count))]
    }
}
