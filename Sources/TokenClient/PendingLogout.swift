import AuthAPI

/// A logout the server has not acknowledged: what to send again.
struct PendingLogout: Sendable, Equatable {
    /// The session's refresh token, which identifies the session to the server.
    var refreshToken: String
    /// The access token, when it had not expired (`global` can be proved with either).
    var accessToken: String?
    /// `local` or `global`.
    var scope: LogoutScope
}
