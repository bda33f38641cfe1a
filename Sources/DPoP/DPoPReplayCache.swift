import Cryptography
import Synchronization

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The proofs accepted within their window, in process memory, for a server that is the only instance (SQLite):
/// each replay key is accepted once until it expires. At most `capacity` keys are held; expired ones are dropped
/// as time passes, so memory follows the request rate times the window.
///
/// Each key is held as 16 bytes (the first half of the SHA-256 that `DPoPProof.replayKey` spells in hex; another
/// string is hashed first) in a set, and once more in the bucket of the second it expires in. About 40 bytes per
/// key with the hash table's spare room: a full cache of 1,000,000 keys takes about 40 MB. `insert` is O(1)
/// amortised: buckets are dropped whole as their second passes, each key once, never by scanning the set.
/// Thread-safe (a `Mutex`).
public final class DPoPReplayCache: Sendable {
    /// What `insert` decided.
    public enum Outcome: Sendable, Equatable {
        /// First time: the proof may be accepted.
        case fresh
        /// Seen before and not expired: refuse it.
        case replayed
        /// `capacity` unexpired keys are held already: nothing was recorded (answer 503, retry later).
        case full
    }

    public let capacity: Int
    private let state = Mutex(ReplayState())

    /// - Precondition: `capacity` is positive.
    public init(capacity: Int) {
        precondition(capacity > 0, "the replay cache needs room for at least one key")
        self.capacity = capacity
    }

    /// Records `key` (`DPoPProof.replayKey`) until `expiresAt`, unless it is held already or the cache is full.
    ///
    /// A key is held until the start of the first whole second at or after `expiresAt` (at most a second longer
    /// than asked, never shorter). A key whose `expiresAt` is not after `now` is `fresh` and not recorded: no proof
    /// it stands for can be accepted any more.
    public func insert(_ key: String, expiresAt: Date, now: Date) -> Outcome {
        let compact = ReplayKey(key)
        let second = Int64(now.timeIntervalSince1970.rounded(.down))
        let expiry = Int64(expiresAt.timeIntervalSince1970.rounded(.up))
        return state.withLock { state in
            state.sweep(through: second)
            if state.keys.contains(compact) { return .replayed }
            guard expiry > second else { return .fresh }
            guard state.keys.count < capacity else { return .full }
            state.keys.insert(compact)
            state.buckets[expiry, default: []].append(compact)
            return .fresh
        }
    }

    /// The number of unexpired keys held as of the last `insert` (for tests and metrics).
    public var count: Int { state.withLock { $0.keys.count } }
}

/// A replay key in 16 bytes.
struct ReplayKey: Hashable {
    let high: UInt64
    let low: UInt64

    /// The first 32 hex digits of `key` (a `replayKey`), or the first 16 bytes of SHA-256 of any other string.
    init(_ key: String) {
        let text = Array(key.utf8)
        var words: (UInt64, UInt64) = (0, 0)
        var isHex = text.count >= 32
        if isHex {
            for index in 0..<32 {
                guard let digit = Hex.value(text[index]) else {
                    isHex = false
                    break
                }
                if index < 16 {
                    words.0 = words.0 << 4 | UInt64(digit)
                } else {
                    words.1 = words.1 << 4 | UInt64(digit)
                }
            }
        }
        if !isHex {
            let digest = (try? SHA256.hash(text)) ?? text + Array(repeating: 0, count: 16)
            words = (0, 0)
            for index in 0..<8 { words.0 = words.0 << 8 | UInt64(digest[index]) }
            for index in 8..<16 { words.1 = words.1 << 8 | UInt64(digest[index]) }
        }
        high = words.0
        low = words.1
    }
}

/// The set of held keys and the same keys by the second they expire in.
struct ReplayState: ~Copyable {
    var keys: Set<ReplayKey> = []
    var buckets: [Int64: [ReplayKey]] = [:]
    /// Every bucket up to this second has been dropped.
    var sweptThrough: Int64?

    /// Drops the keys of every second up to `second`: second by second when few seconds passed, else by walking the
    /// buckets (fewer than the seconds then). Each bucket and key is dropped once, so the cost is amortised.
    mutating func sweep(through second: Int64) {
        guard let swept = sweptThrough else {
            sweptThrough = second
            return
        }
        guard second > swept else { return }
        if second - swept > Int64(buckets.count) {
            for expiry in Array(buckets.keys) where expiry <= second { drop(expiry) }
        } else {
            var expiry = swept + 1
            while expiry <= second {
                drop(expiry)
                expiry += 1
            }
        }
        sweptThrough = second
    }

    private mutating func drop(_ expiry: Int64) {
        guard let expired = buckets.removeValue(forKey: expiry) else { return }
        for key in expired { keys.remove(key) }
    }
}
