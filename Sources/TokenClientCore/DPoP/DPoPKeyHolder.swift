/// The session's current DPoP key: loaded from the store at first use, generated and saved when the store has none
/// (or holds material that does not load), forgotten and deleted at sign-out.
final class DPoPKeyHolder: Sendable {
    let configuration: DPoPConfiguration
    private let current: Locked<(any DPoPKey)?>

    init(configuration: DPoPConfiguration) {
        self.configuration = configuration
        current = Locked(nil)
    }

    /// The key, loading or making it first.
    /// - Throws: ``TokenClientError/storageLocked`` when the store cannot be read now, ``TokenClientError/storage(_:)``
    ///   when a new key cannot be saved, ``TokenClientError/dpop(_:)`` when one cannot be made.
    func key() throws -> any DPoPKey {
        try current.withLock { current in
            if let current { return current }
            let store = configuration.keyStore
            let stored: DPoPKeyMaterial?
            do {
                stored = try store.loadKey()
            } catch {
                throw TokenClientError.storage(from: error)
            }
            if let stored, let restored = try? configuration.keyKind.restore(stored) {
                current = restored
                return restored
            }
            let made = try configuration.keyKind.generate()
            do {
                try store.saveKey(try made.material())
            } catch {
                throw TokenClientError.storage(from: error)
            }
            current = made
            return made
        }
    }

    /// The key in use, if one has been loaded or made (nothing is read or generated).
    var loaded: (any DPoPKey)? { current.withLock { $0 } }

    /// Forgets the key and deletes it from the store; the next proof uses a new one. A store that cannot delete now
    /// is tried again at the next sign-out.
    /// - Returns: the key that was in use (or stored), for a request still to be signed with it (the logout).
    @discardableResult
    func discard() -> (any DPoPKey)? {
        current.withLock { current in
            let old =
                current
                ?? (try? configuration.keyStore.loadKey()).flatMap { $0 }.flatMap {
                    try? configuration.keyKind.restore($0)
                }
            current = nil
            try? configuration.keyStore.deleteKey()
            return old
        }
    }
}
