/// Which generic-password item of the Keychain holds the tokens: `kSecAttrService`, `kSecAttrAccount` and, for
/// sharing between an app and its extensions, `kSecAttrAccessGroup`.
public struct KeychainItem: Sendable, Hashable {
    /// `kSecAttrService`.
    public var service: String
    /// `kSecAttrAccount`.
    public var account: String
    /// `kSecAttrAccessGroup` (a keychain access group of the app's entitlements); `nil` for the app's default group.
    public var accessGroup: String?

    /// Creates an item name.
    public init(service: String, account: String, accessGroup: String? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }
}
