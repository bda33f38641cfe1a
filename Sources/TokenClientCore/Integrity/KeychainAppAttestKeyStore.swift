#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An ``AppAttestKeyStore`` in one generic-password item of the Keychain (the key id as UTF-8), through a
/// ``KeychainBackend`` (``SecItemKeychain`` on Apple platforms). The item is readable after the first unlock and never
/// leaves the device: an App Attest key cannot move to another device either.
public struct KeychainAppAttestKeyStore: AppAttestKeyStore {
    /// The item holding the key id.
    public let item: KeychainItem
    private let backend: any KeychainBackend

    /// Creates a store for the item `service`/`account` (in `accessGroup` when set), reached through `backend`.
    public init(
        service: String = "tokenvend", account: String = "app-attest-key", accessGroup: String? = nil,
        backend: any KeychainBackend
    ) {
        item = KeychainItem(service: service, account: account, accessGroup: accessGroup)
        self.backend = backend
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
        let (status, data) = backend.copyData(item)
        switch status {
        case KeychainStatus.success: return data.flatMap { String(data: $0, encoding: .utf8) }
        case KeychainStatus.itemNotFound: return nil
        default: throw Self.failure(status)
        }
    }

    /// Stores `keyID` (updates the item, adds it when missing).
    public func save(_ keyID: String) throws {
        let data = Data(keyID.utf8)
        var status = backend.update(item, data: data)
        if status == KeychainStatus.itemNotFound {
            status = backend.add(item, data: data, accessibility: .afterFirstUnlockThisDeviceOnly)
            if status == KeychainStatus.duplicateItem { status = backend.update(item, data: data) }
        }
        guard status == KeychainStatus.success else { throw Self.failure(status) }
    }

    /// Deletes the item.
    public func clear() throws {
        let status = backend.delete(item)
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
            throw Self.failure(status)
        }
    }

    private static func failure(_ status: Int32) -> TokenClientError {
        status == KeychainStatus.interactionNotAllowed
            ? .storageLocked : .storage("keychain status \(status) for the App Attest key id")
    }
}
