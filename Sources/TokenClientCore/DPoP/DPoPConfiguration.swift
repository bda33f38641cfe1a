/// Binds an ``AuthSession`` to a DPoP key (RFC 9449): pass it as `AuthSession(…, dpop:)`.
///
/// Every request the session sends to its server then carries a `DPoP` proof signed by the key; the sign-in and
/// refresh requests too, so a server with DPoP binds the session (`"tokenType": "DPoP"`), and from then on the access
/// token goes out as `Authorization: DPoP …` with a proof whose `ath` is its hash. The key is loaded from
/// ``keyStore`` at the first proof (made with ``keyKind`` and saved there when the store has none), survives
/// restarts with the store, and is deleted when the session signs out (logout, a refused refresh, account deletion).
public struct DPoPConfiguration: Sendable {
    /// Where the key persists.
    public var keyStore: any DPoPKeyStore
    /// Which key to make, and how to load stored material.
    public var keyKind: DPoPKeyKind

    /// Creates a configuration.
    /// - Parameters:
    ///   - keyStore: ``KeychainDPoPKeyStore`` on Apple platforms, the ``FileTokenStore`` of the session on the
    ///     command line, ``InMemoryDPoPKeyStore`` for a key per launch.
    ///   - keyKind: ``DPoPKeyKind/preferred`` on Apple platforms (the Secure Enclave when there is one), else
    ///     ``DPoPKeyKind/softwareP256`` or ``DPoPKeyKind/softwareEd25519``.
    public init(keyStore: any DPoPKeyStore, keyKind: DPoPKeyKind) {
        self.keyStore = keyStore
        self.keyKind = keyKind
    }
}
