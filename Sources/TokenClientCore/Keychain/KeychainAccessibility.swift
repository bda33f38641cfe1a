/// When a Keychain item can be read (`kSecAttrAccessible`), set when the item is added.
public enum KeychainAccessibility: Sendable, Hashable, CaseIterable {
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: readable from the first unlock after a restart on, also
    /// in the background; never restored to another device. The default: a refresh in the background works, and a
    /// backup never carries the refresh token elsewhere.
    case afterFirstUnlockThisDeviceOnly
    /// `kSecAttrAccessibleAfterFirstUnlock`: as above, but moves to a new device with an encrypted backup.
    case afterFirstUnlock
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`: readable only while the device is unlocked.
    case whenUnlockedThisDeviceOnly
    /// `kSecAttrAccessibleWhenUnlocked`: readable only while the device is unlocked; moves with a backup.
    case whenUnlocked
}
