/// What presenting a one-time authorization code found (`OAuthFlowStoring.redeemCode`).
public enum CodeRedemption: Sendable, Equatable {
    /// The first presentation, before the code expired: the code is now used and can never be redeemed again.
    case redeemed(AuthorizationCode)
    /// The code was presented before (expired since or not): now marked replayed. `sessionID` is the session the
    /// first presentation issued, or nil when it has not been attached (yet); the caller revokes it.
    case replayed(userID: String, sessionID: String?)
    /// Never issued, pruned, or expired unused.
    case unknown
}
