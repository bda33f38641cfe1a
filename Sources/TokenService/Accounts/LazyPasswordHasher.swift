import PasswordHash
import Synchronization

/// The server's `PasswordHasher`, built on first use rather than at start-up.
///
/// Building one computes the dummy hash for unknown-email logins: one full Argon2id run, `memoryCost` KiB
/// (19 MiB by default) allocated and freed. Deferring it to the first hashing request keeps that allocation out
/// of the start-up (and out of the peak RSS of a server that never sees a login), and runs it on a
/// hashing-pool thread. The cost is valid by construction: the configuration loader bounds `timeCost` and
/// `memoryCost` inside libsodium's limits. `Mutex`-guarded; later calls return the same instance.
final class LazyPasswordHasher: Sendable {
    private let timeCost: Int
    private let memoryKiB: Int
    private let built = Mutex<PasswordHasher?>(nil)

    init(timeCost: Int, memoryKiB: Int) {
        self.timeCost = timeCost
        self.memoryKiB = memoryKiB
    }

    /// The hasher; the first call builds it (one Argon2id run), so call this on a hashing-pool thread.
    /// - Throws: `PasswordHashError` from `PasswordHasher.init` (libsodium unavailable, memory exhausted).
    func get() throws(PasswordHashError) -> PasswordHasher {
        try built.withLock { (slot: inout PasswordHasher?) throws(PasswordHashError) -> PasswordHasher in
            if let existing = slot { return existing }
            let hasher = try PasswordHasher(timeCost: timeCost, memoryKiB: memoryKiB)
            slot = hasher
            return hasher
        }
    }

    /// The hasher if a previous call built it.
    var existing: PasswordHasher? {
        built.withLock { $0 }
    }
}
