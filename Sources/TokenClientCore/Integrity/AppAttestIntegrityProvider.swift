/// App Attest (iOS 14+, on devices with a Secure Enclave): the first call generates a key and has the server verify
/// Apple's attestation of it (`/integrity/apple/attest`); later calls sign the server's challenge with that key
/// (`/integrity/apple/assert`). The key id is kept in a ``AppAttestKeyStore`` (the Keychain on Apple platforms), so
/// an app attests once per install.
///
/// When the server refuses an assertion (it no longer knows the key, or the counter went back) or the device lost
/// the key, the provider forgets it, generates a new one and attests once. `clientDataHash` is always the SHA-256
/// of the challenge's UTF-8 bytes. ``AuthSession`` calls it one call at a time.
public actor AppAttestIntegrityProvider: AppIntegrityProvider {
    private let service: any AppAttestService
    private let keyStore: any AppAttestKeyStore

    /// Creates a provider over `service` (`DeviceCheckAppAttestService()` in `TokenClient` on Apple platforms)
    /// keeping the key id in `keyStore`.
    public init(service: any AppAttestService, keyStore: any AppAttestKeyStore) {
        self.service = service
        self.keyStore = keyStore
    }

    /// An integrity token from an assertion by the stored key, or from a new key's attestation.
    /// - Throws: ``TokenClientError/integrity(_:)`` with ``AppIntegrityFailure/unsupported`` on a device without
    ///   App Attest, ``AppIntegrityFailure/refused(_:)`` when the server refuses a new key's attestation, and what
    ///   ``IntegrityExchange`` and the service throw.
    public func integrityToken(using exchange: IntegrityExchange) async throws -> IntegrityCredential {
        guard service.isSupported else { throw TokenClientError.integrity(.unsupported) }
        if let keyID = try keyStore.load() {
            let challenge = try await exchange.challenge()
            do {
                let assertion = try await service.generateAssertion(keyID, clientDataHash: Self.hash(challenge))
                return try await exchange.assert(keyID: keyID, assertion: assertion, challenge: challenge)
            } catch AppAttestServiceError.invalidKey {
                try keyStore.clear()
            } catch TokenClientError.integrity(.refused) {
                try keyStore.clear()
            }
        }
        return try await attestNewKey(using: exchange)
    }

    private func attestNewKey(using exchange: IntegrityExchange) async throws -> IntegrityCredential {
        let keyID = try await service.generateKey()
        let challenge = try await exchange.challenge()
        let attestation = try await service.attestKey(keyID, clientDataHash: Self.hash(challenge))
        let credential = try await exchange.attest(keyID: keyID, attestation: attestation, challenge: challenge)
        try keyStore.save(keyID)
        return credential
    }

    /// The `clientDataHash` for `challenge`: SHA-256 of its UTF-8 bytes.
    static func hash(_ challenge: String) -> [UInt8] {
        PortableSHA256.hash(Array(challenge.utf8))
    }
}
