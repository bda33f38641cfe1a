public import AuthAPI

/// What an ``AuthSession`` is doing, published through ``AuthSession/stateUpdates()``.
public enum SessionState: Sendable, Equatable {
    /// No tokens: show the sign-in screen.
    case signedOut
    /// Tokens are held. The user is `nil` only when restored tokens were stored without one.
    case signedIn(User?)
    /// A refresh is in flight; requests wait for it.
    case refreshing

    /// `true` unless signed out.
    public var isSignedIn: Bool {
        if case .signedOut = self { return false }
        return true
    }
}
