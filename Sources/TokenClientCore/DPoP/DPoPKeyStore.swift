/// Where a session's DPoP key persists between launches, as ``DPoPKeyMaterial``: ``KeychainDPoPKeyStore`` on Apple
/// platforms, ``FileTokenStore`` (the key beside the tokens in the session file), ``InMemoryDPoPKeyStore``.
///
/// The session loads the key at its first proof, saves a key it generates, and deletes it when it signs out.
public protocol DPoPKeyStore: Sendable {
    /// The stored key material, `nil` when there is none.
    /// - Throws: ``TokenClientError/storageLocked`` when it cannot be read now, else any error.
    func loadKey() throws -> DPoPKeyMaterial?
    /// Stores `material`, replacing any other.
    func saveKey(_ material: DPoPKeyMaterial) throws
    /// Forgets the key (nothing stored is not an error).
    func deleteKey() throws
}

/// A ``DPoPKeyStore`` in memory: a new key (and an unbound session after a restart) at every launch.
public final class InMemoryDPoPKeyStore: DPoPKeyStore {
    private let material: Locked<DPoPKeyMaterial?>

    /// Creates a store holding `material`.
    public init(material: DPoPKeyMaterial? = nil) {
        self.material = Locked(material)
    }

    /// The stored material.
    public func loadKey() -> DPoPKeyMaterial? { material.withLock { $0 } }

    /// Stores `material`.
    public func saveKey(_ material: DPoPKeyMaterial) { self.material.withLock { $0 = material } }

    /// Forgets the material.
    public func deleteKey() { material.withLock { $0 = nil } }
}
