/// Where ``AppAttestIntegrityProvider`` keeps the id of its attested key between launches.
/// ``KeychainAppAttestKeyStore`` on Apple platforms; ``InMemoryAppAttestKeyStore`` elsewhere and in tests.
public protocol AppAttestKeyStore: Sendable {
    /// The stored key id, `nil` when none.
    func load() throws -> String?
    /// Stores `keyID`, replacing any other.
    func save(_ keyID: String) throws
    /// Forgets the key id (nothing stored is not an error).
    func clear() throws
}

/// An ``AppAttestKeyStore`` in memory: the key is attested again at every launch.
public final class InMemoryAppAttestKeyStore: AppAttestKeyStore {
    private let keyID: Locked<String?>

    /// Creates a store holding `keyID`.
    public init(keyID: String? = nil) {
        self.keyID = Locked(keyID)
    }

    /// The stored key id.
    public func load() -> String? { keyID.withLock { $0 } }

    /// Stores `keyID`.
    public func save(_ keyID: String) { self.keyID.withLock { $0 = keyID } }

    /// Forgets the key id.
    public func clear() { keyID.withLock { $0 = nil } }
}
