#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An ``AppAttestKeyStore`` in one generic-password item of the Keychain (the key id as UTF-8), through a
/// ``KeychainBackend`` (``SecItemKeychain`` on Apple platforms). The item is readable after the first unlock and never
/// leaves the device: an App Attest key cannot move to another device either.
public struct KeychainAppAttestKeyStore: AppAttestKeyStore {
    private let slot: KeychainSlot

    /// The item holding the key id.
    public var item: KeychainItem { slot.item }

    /// Creates a store for the item `service`/`account` (in `accessGroup` when set), reached through `backend`.
    public init(
        service: String = "tokenvend", account: String = "app-attest-key", accessGroup: String? = nil,
        backend: any KeychainBackend
    ) {
        slot = KeychainSlot(
            item: KeychainItem(service: service, account: account, accessGroup: accessGroup), backend: backend,
            contents: "the App Attest key id")
    }

    #if canImport(Security)
        /// Creates a store for the item `service`/`account` (in `accessGroup` when set) of the device's Keychain.
        public init(service: String = "tokenvend", account: String = "app-attest-key", accessGroup: String? = nil) {
            self.init(service: service, account: account, accessGroup: accessGroup, backend: SecItemKeychain())
        }
    #endif

    /// The stored key id, `nil` when there is none.
    /// - Throws: ``TokenClientError/storageLocked`` before the first unlock, ``TokenClientError/storage(_:)``.
    public func load() throws -> String? {
        try slot.read().flatMap { String(data: $0, encoding: .utf8) }
    }

    /// Stores `keyID` (updates the item, adds it when missing).
    public func save(_ keyID: String) throws {
        try slot.write(Data(keyID.utf8))
    }

    /// Deletes the item.
    public func clear() throws {
        try slot.delete()
    }
}
