/// An assertion that passed every check.
public struct VerifiedAuthentication: Sendable, Equatable {
    /// The new sign counter (to store).
    public var signCount: UInt32
    /// Flag UV.
    public var userVerified: Bool
    /// Flag BS now.
    public var backedUp: Bool

    /// Creates a result.
    public init(signCount: UInt32, userVerified: Bool, backedUp: Bool) {
        self.signCount = signCount
        self.userVerified = userVerified
        self.backedUp = backedUp
    }
}
