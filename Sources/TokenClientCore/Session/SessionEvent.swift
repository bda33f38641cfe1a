public import AuthAPI

/// Something that happened to an ``AuthSession``, with its reason: published through ``AuthSession/events()``.
///
/// ``SessionState`` says where the session is; events say what moved it there (a revoked session and a user
/// who tapped "Sign out" both end in ``SessionState/signedOut``, but an app tells them apart).
public enum SessionEvent: Sendable, Equatable {
    /// Tokens were received by a login or sign-in, adopted from another process, or read from a store that was
    /// locked until now.
    case signedIn(User?)
    /// A refresh replaced the token pair.
    case refreshed
    /// The tokens are gone, and why.
    case signedOut(reason: SignOutReason)
    /// The store could not be read (the Keychain before the first unlock): the session waits and tries again,
    /// and never counts this as signed out.
    case locked
    /// Tokens received from the server could not be written to the store; the session keeps them in memory and
    /// retries the write. Until one succeeds, another process (or the next launch) would find the old pair.
    case saveFailed(TokenClientError)
}

/// Why a session ended.
public enum SignOutReason: Sendable, Equatable {
    /// The server refused the refresh token (`invalid_grant`): revoked, reused, or the account disabled.
    case revoked
    /// The app called ``AuthSession/logout(scope:)``.
    case userAction
    /// The refresh token's lifetime (`refreshExpiresAt`) has passed.
    case expired
    /// The account was deleted: ``AuthSession/deleteAccount(password:)``, or
    /// ``AuthSession/confirmAccountDeletion(email:code:)`` for the signed-in account.
    case accountDeleted
}
