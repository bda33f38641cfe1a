public import AuthAPI

/// What an ``AuthSession`` is doing, published through ``AuthSession/stateUpdates()``.
public enum SessionState: Sendable, Equatable {
    /// No tokens: show the sign-in screen.
    case signedOut
    /// Tokens are held. The user is `nil` only when restored tokens were stored without one.
    case signedIn(User?)
    /// A refresh is in flight; requests wait for it.
    case refreshing
    /// The store could not be read (the Keychain before the first unlock). Not signed out: the session tries
    /// again by itself (and on ``AuthSession/reload()``), and a request waits for nothing but fails with
    /// ``TokenClientError/storageLocked``.
    case locked

    /// `true` unless signed out (a locked store is presumed to hold a session until read).
    public var isSignedIn: Bool {
        if case .signedOut = self { return false }
        return true
    }
}
