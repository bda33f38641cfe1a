#if canImport(Security)
    public import Foundation
    import Security

    /// The Keychain through SecItem: one generic-password item (`kSecClassGenericPassword`) per ``KeychainItem``.
    ///
    /// On macOS every call sets `kSecUseDataProtectionKeychain`, so items behave as on iOS (access groups and
    /// `kSecAttrAccessible` apply; the file-based keychain is never used).
    public struct SecItemKeychain: KeychainBackend {
        /// Creates the backend; it holds no state.
        public init() {}

        /// `SecItemCopyMatching` with `kSecReturnData` and `kSecMatchLimitOne`.
        public func copyData(_ item: KeychainItem) -> (status: Int32, data: Data?) {
            var query = Self.query(item)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            return (status, result as? Data)
        }

        /// `SecItemUpdate` setting `kSecValueData`.
        public func update(_ item: KeychainItem, data: Data) -> Int32 {
            let attributes: [String: Any] = [kSecValueData as String: data]
            return SecItemUpdate(Self.query(item) as CFDictionary, attributes as CFDictionary)
        }

        /// `SecItemAdd` with `kSecValueData` and `kSecAttrAccessible`.
        public func add(_ item: KeychainItem, data: Data, accessibility: KeychainAccessibility) -> Int32 {
            var attributes = Self.query(item)
            attributes[kSecValueData as String] = data
            attributes[kSecAttrAccessible as String] = Self.accessible(accessibility)
            return SecItemAdd(attributes as CFDictionary, nil)
        }

        /// `SecItemDelete`.
        public func delete(_ item: KeychainItem) -> Int32 {
            SecItemDelete(Self.query(item) as CFDictionary)
        }

        /// The attributes naming `item`: class, service, account, the access group when set, and on macOS the
        /// data protection keychain.
        private static func query(_ item: KeychainItem) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: item.service,
                kSecAttrAccount as String: item.account,
            ]
            if let accessGroup = item.accessGroup {
                query[kSecAttrAccessGroup as String] = accessGroup
            }
            #if os(macOS)
                query[kSecUseDataProtectionKeychain as String] = true
            #endif
            return query
        }

        /// The `kSecAttrAccessible` value of `accessibility`.
        private static func accessible(_ accessibility: KeychainAccessibility) -> CFString {
            switch accessibility {
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
            case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
            }
        }
    }
#endif
