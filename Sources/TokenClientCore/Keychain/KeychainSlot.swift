#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One generic-password item holding a small secret whole, readable after the first unlock and never restored to
/// another device: the App Attest key id (``KeychainAppAttestKeyStore``) and the DPoP key
/// (``KeychainDPoPKeyStore``). A save updates the item and adds it only when missing.
struct KeychainSlot: Sendable {
    let item: KeychainItem
    let backend: any KeychainBackend
    /// What the item holds, for error texts ("the App Attest key id").
    let contents: String

    /// The item's data, `nil` when there is none.
    /// - Throws: ``TokenClientError/storageLocked`` before the first unlock, ``TokenClientError/storage(_:)``.
    func read() throws -> Data? {
        let (status, data) = backend.copyData(item)
        switch status {
        case KeychainStatus.success: return data
        case KeychainStatus.itemNotFound: return nil
        default: throw failure(status)
        }
    }

    /// Stores `data` (updates the item, adds it when missing).
    func write(_ data: Data) throws {
        var status = backend.update(item, data: data)
        if status == KeychainStatus.itemNotFound {
            status = backend.add(item, data: data, accessibility: .afterFirstUnlockThisDeviceOnly)
            if status == KeychainStatus.duplicateItem { status = backend.update(item, data: data) }
        }
        guard status == KeychainStatus.success else { throw failure(status) }
    }

    /// Deletes the item; succeeds when there is none.
    func delete() throws {
        let status = backend.delete(item)
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
            throw failure(status)
        }
    }

    private func failure(_ status: Int32) -> TokenClientError {
        status == KeychainStatus.interactionNotAllowed
            ? .storageLocked : .storage("keychain status \(status) for \(contents)")
    }
}
