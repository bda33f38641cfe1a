/// The `scope` query parameter of `POST /auth/logout`.
public enum LogoutScope: String, Codable, Sendable, CaseIterable {
    /// This session only (the default).
    case local
    /// Every other session of the user; this one stays signed in.
    case others
    /// Every session of the user, this one included.
    case global
}
