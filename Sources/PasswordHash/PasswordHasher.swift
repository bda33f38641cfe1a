/// Argon2id (v1.3) password hashing through libsodium, in PHC string format (`$argon2id$v=19$m=…,t=…,p=1$…`).
///
/// Every call blocks for the configured cost (about 12 ms at the defaults): run them on a `HashingPool`,
/// never on the cooperative pool.
///
/// ```swift
/// let hasher = try PasswordHasher()                       // t=2, 19 MiB
/// let hash = try hasher.hash(Password(input))
/// guard let user else { _ = hasher.verifyDummy(Password(input)); return .invalidCredentials }
/// if hasher.verify(Password(input), against: user.passwordHash), hasher.needsRehash(user.passwordHash) { … }
/// ```
public struct PasswordHasher: Sendable {
    /// Argon2id iterations (`password.timeCost`). Default: 2.
    public let timeCost: Int
    /// Argon2id memory in KiB (`password.memoryCost`). Default: 19456 (19 MiB).
    public let memoryKiB: Int
    /// A hash of a random password at this cost. Verify against it when the email is unknown, so both
    /// failures take the same time.
    public let dummyHash: String

    /// Checks the cost against libsodium's Argon2id limits and precomputes `dummyHash` (one hash, so this
    /// takes as long as a login).
    /// - Throws: `.invalidCost` outside libsodium's limits (time ≥ 1, memory ≥ 8 KiB), `.unavailable` if
    ///   libsodium cannot initialise, `.hashingFailed` if the memory cannot be allocated.
    public init(timeCost: Int = 2, memoryKiB: Int = 19456) throws(PasswordHashError) {
        guard Sodium.isReady else { throw .unavailable }
        let ops = Sodium.opsLimitRange
        let memory = Sodium.memoryLimitRange
        guard ops.contains(timeCost) else {
            throw .invalidCost("timeCost must be in \(ops.lowerBound)...\(ops.upperBound)")
        }
        let (bytes, overflow) = memoryKiB.multipliedReportingOverflow(by: 1024)
        guard !overflow, memory.contains(bytes) else {
            throw .invalidCost("memoryKiB must be in \(memory.lowerBound / 1024)...\(memory.upperBound / 1024)")
        }
        self.timeCost = timeCost
        self.memoryKiB = memoryKiB
        let random = Password(bytes: Sodium.randomBytes(count: 32))
        guard let dummy = random.argon2idHash(opsLimit: timeCost, memoryLimit: bytes) else {
            throw .hashingFailed
        }
        self.dummyHash = dummy
    }

    private var memoryBytes: Int { memoryKiB * 1024 }

    /// Hashes `password` with a fresh random salt.
    /// - Returns: the PHC string (at most `crypto_pwhash_strbytes() - 1` ASCII characters).
    /// - Throws: `.hashingFailed` when libsodium cannot allocate the memory cost.
    public func hash(_ password: Password) throws(PasswordHashError) -> String {
        guard let hash = password.argon2idHash(opsLimit: timeCost, memoryLimit: memoryBytes) else {
            throw .hashingFailed
        }
        return hash
    }

    /// Whether `password` matches `hash` (any Argon2 cost; the cost comes from the hash string). False for a
    /// malformed hash.
    public func verify(_ password: Password, against hash: String) -> Bool {
        password.matches(hash)
    }

    /// Verifies against `dummyHash` and returns false: the unknown-email path of a login, so it costs the
    /// same as a wrong password.
    public func verifyDummy(_ password: Password) -> Bool {
        _ = verify(password, against: dummyHash)
        return false
    }

    /// Whether `hash` should be replaced after a successful login: another algorithm (not `argon2id`),
    /// another cost than this hasher's, or unparsable.
    public func needsRehash(_ hash: String) -> Bool {
        guard hash.hasPrefix("$argon2id$") else { return true }
        return Sodium.needsRehash(hash, opsLimit: timeCost, memoryLimit: memoryBytes) != 0
    }
}
