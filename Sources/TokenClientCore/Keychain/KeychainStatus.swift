/// The `OSStatus` values ``KeychainTokenStore`` tells apart, with the values of Security's `errSec…` constants so
/// they exist where the Security framework does not.
public enum KeychainStatus {
    /// `errSecSuccess`.
    public static let success: Int32 = 0
    /// `errSecItemNotFound`: no such item.
    public static let itemNotFound: Int32 = -25300
    /// `errSecDuplicateItem`: `SecItemAdd` found the item already there.
    public static let duplicateItem: Int32 = -25299
    /// `errSecInteractionNotAllowed`: the item cannot be read now (the device has not been unlocked since it
    /// started, or is locked and the item is readable only when unlocked).
    public static let interactionNotAllowed: Int32 = -25308
}
