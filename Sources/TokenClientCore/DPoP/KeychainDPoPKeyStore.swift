#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``DPoPKeyStore`` in one generic-password item of the Keychain (the material as JSON), through a
/// ``KeychainBackend`` (``SecItemKeychain`` on Apple platforms). For a Secure Enclave key the item holds CryptoKit's
/// `dataRepresentation`, useless on any other device; the item is readable after the first unlock and never leaves
/// the device.
public struct KeychainDPoPKeyStore: DPoPKeyStore {
    private let slot: KeychainSlot

    /// The item holding the key.
    public var item: KeychainItem { slot.item }

    /// Creates a store for the item `service`/`account` (in `accessGroup` when set), reached through `backend`.
    public init(
        service: String = "tokenvend", account: String = "dpop-key", accessGroup: String? = nil,
        backend: any KeychainBackend
    ) {
        slot = KeychainSlot(
            item: KeychainItem(service: service, account: account, accessGroup: accessGroup), backend: backend,
            contents: "the DPoP key")
    }

    #if canImport(Security)
        /// Creates a store for the item `service`/`account` (in `accessGroup` when set) of the device's Keychain.
        public init(service: String = "tokenvend", account: String = "dpop-key", accessGroup: String? = nil) {
            self.init(service: service, account: account, accessGroup: accessGroup, backend: SecItemKeychain())
        }
    #endif

    /// The stored material, `nil` when there is none.
    /// - Throws: ``TokenClientError/storageLocked`` before the first unlock, ``TokenClientError/storage(_:)``.
    public func loadKey() throws -> DPoPKeyMaterial? {
        guard let data = try slot.read() else { return nil }
        guard let material = try? JSONDecoder().decode(DPoPKeyMaterial.self, from: data) else {
            throw TokenClientError.storage("keychain item \(item.service)/\(item.account) holds no DPoP key")
        }
        return material
    }

    /// Stores `material` (updates the item, adds it when missing).
    public func saveKey(_ material: DPoPKeyMaterial) throws {
        guard let data = try? JSONEncoder().encode(material) else {
            throw TokenClientError.storage("cannot encode the DPoP key")
        }
        try slot.write(data)
    }

    /// Deletes the item; succeeds when there is none.
    public func deleteKey() throws {
        try slot.delete()
    }
}
