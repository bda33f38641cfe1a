#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``TokenStore`` in one generic-password item of the Keychain: the store for apps on Apple platforms.
///
/// The tokens are the item's data, as JSON (the same bytes ``FileTokenStore`` writes). A save updates the item and
/// adds it only when there is none, so the item is never missing between two steps: it is never deleted and added
/// again, and an item another process added meanwhile (`SecItemAdd` says duplicate) is updated instead.
///
/// Before the first unlock after a restart the Keychain cannot be read (`errSecInteractionNotAllowed`); every call
/// then throws ``TokenClientError/storageLocked`` and the session waits, signed in, until it can. Share the item
/// between an app and its extensions with `accessGroup` (a keychain access group of both targets' entitlements).
public struct KeychainTokenStore: TokenStore {
    /// The item holding the tokens.
    public let item: KeychainItem
    /// When the item can be read; applied when the item is added (an existing item keeps its own).
    public let accessibility: KeychainAccessibility
    private let backend: any KeychainBackend

    /// Creates a store for the item `service`/`account` (in `accessGroup` when set), reached through `backend`.
    public init(
        service: String = "tokenvend", account: String = "session", accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, backend: any KeychainBackend
    ) {
        item = KeychainItem(service: service, account: account, accessGroup: accessGroup)
        self.accessibility = accessibility
        self.backend = backend
    }

    #if canImport(Security)
        /// Creates a store for the item `service`/`account` (in `accessGroup` when set) of the device's Keychain.
        public init(
            service: String = "tokenvend", account: String = "session", accessGroup: String? = nil,
            accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly
        ) {
            self.init(
                service: service, account: account, accessGroup: accessGroup, accessibility: accessibility,
                backend: SecItemKeychain())
        }
    #endif

    /// Reads the item; `nil` when there is none.
    /// - Throws: ``TokenClientError/storageLocked`` before the first unlock; ``TokenClientError/storage(_:)`` with
    ///   the `OSStatus` when the item cannot be read, or when its data is not stored tokens.
    public func load() throws -> StoredTokens? {
        let (status, data) = backend.copyData(item)
        if status == KeychainStatus.itemNotFound { return nil }
        try check(status, doing: "read")
        guard let data, let tokens = try? StoredTokens(storageJSON: data) else {
            throw TokenClientError.storage("keychain item \(name) does not hold stored tokens")
        }
        return tokens
    }

    /// Replaces the item's data with `tokens`: updates the item, and adds it only when there is none. When the add
    /// finds one (another process added it in between), updates that one.
    /// - Throws: ``TokenClientError/storageLocked`` before the first unlock (the item is left as it was);
    ///   ``TokenClientError/storage(_:)`` with the `OSStatus` of any other failure.
    public func save(_ tokens: StoredTokens) throws {
        let data = try tokens.storageJSON()
        var status = backend.update(item, data: data)
        if status == KeychainStatus.itemNotFound {
            status = backend.add(item, data: data, accessibility: accessibility)
            if status == KeychainStatus.duplicateItem {
                status = backend.update(item, data: data)
            }
        }
        try check(status, doing: "write")
    }

    /// Deletes the item; succeeds when there is none.
    /// - Throws: ``TokenClientError/storageLocked`` before the first unlock; ``TokenClientError/storage(_:)`` with
    ///   the `OSStatus` of any other failure.
    public func clear() throws {
        let status = backend.delete(item)
        if status == KeychainStatus.itemNotFound { return }
        try check(status, doing: "delete")
    }

    /// Returns on success; throws ``TokenClientError/storageLocked`` for `errSecInteractionNotAllowed` and
    /// ``TokenClientError/storage(_:)`` naming the status for anything else.
    private func check(_ status: Int32, doing action: String) throws {
        switch status {
        case KeychainStatus.success: return
        case KeychainStatus.interactionNotAllowed: throw TokenClientError.storageLocked
        default: throw TokenClientError.storage("cannot \(action) keychain item \(name): OSStatus \(status)")
        }
    }

    /// `service/account`, for error texts.
    private var name: String { "\(item.service)/\(item.account)" }
}
