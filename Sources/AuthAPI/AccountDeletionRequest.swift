/// Body of `DELETE /auth/account`: `{"password"}` for an account that has one; `{}` (or no body) for an account
/// without a password, whose session must have signed in within `account.reauthenticationSeconds`.
///
/// A missing or wrong password, or a stale sign-in, answers `401 reauthentication_required`.
public struct AccountDeletionRequest: Codable, Sendable, Equatable {
    /// The account's current password; nil for an account without one.
    public var password: String?

    /// Creates the body.
    public init(password: String? = nil) {
        self.password = password
    }
}
