#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The four SecItem calls ``KeychainTokenStore`` makes on its one generic-password item, behind a protocol so the
/// store's logic runs (and is tested) where the Security framework does not exist.
///
/// ``SecItemKeychain`` is the real one on Apple platforms. Each call returns the `OSStatus` SecItem would; the
/// statuses the store tells apart are in ``KeychainStatus``.
public protocol KeychainBackend: Sendable {
    /// `SecItemCopyMatching` for `item`'s data: ``KeychainStatus/success`` with the data, or a failure status.
    func copyData(_ item: KeychainItem) -> (status: Int32, data: Data?)
    /// `SecItemUpdate` replacing `item`'s data; ``KeychainStatus/itemNotFound`` when there is no such item.
    func update(_ item: KeychainItem, data: Data) -> Int32
    /// `SecItemAdd` of `item` with `data`, readable as `accessibility` says; ``KeychainStatus/duplicateItem`` when
    /// the item exists already.
    func add(_ item: KeychainItem, data: Data, accessibility: KeychainAccessibility) -> Int32
    /// `SecItemDelete` of `item`; ``KeychainStatus/itemNotFound`` when there is no such item.
    func delete(_ item: KeychainItem) -> Int32
}
