import JWT
import Synchronization

/// The keys of DPoP headers already checked, by the header segment's exact bytes: a client signs every proof with
/// the same header (`typ`, `alg`, `jwk`), so a repeated header costs one dictionary look-up instead of base64url,
/// JSON, JWK validation, an OpenSSL key build and a thumbprint.
///
/// An entry is added only for a header that passed every header check and whose proof's signature held. Anyone can
/// make keys, so the cache is bounded: at `capacity` entries an arbitrary entry is dropped for the new one (a
/// dropped key is parsed again on its next proof; correctness never depends on the cache). Thread-safe (a `Mutex`).
final class DPoPKeyCache: Sendable {
    /// What a checked header gives a proof.
    struct Entry: Sendable {
        let key: JWTKey
        /// RFC 7638 thumbprint of the header's `jwk`.
        let thumbprint: String
        let algorithm: JWTAlgorithm
    }

    /// Distinct headers remembered. Default: 1024 (about 1.5 KiB each: the segment and an OpenSSL or libsodium key).
    let capacity: Int
    private let entries = Mutex<[[UInt8]: Entry]>([:])

    init(capacity: Int = 1024) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// The entry of the header segment `segment`, if remembered.
    func entry(for segment: [UInt8]) -> Entry? {
        entries.withLock { $0[segment] }
    }

    /// Remembers `entry` for `segment`, dropping an arbitrary entry when full.
    func insert(_ entry: Entry, for segment: [UInt8]) {
        entries.withLock { entries in
            if entries[segment] == nil, entries.count >= capacity { entries.remove(at: entries.startIndex) }
            entries[segment] = entry
        }
    }

    /// The number of headers remembered (for tests).
    var count: Int { entries.withLock { $0.count } }
}
