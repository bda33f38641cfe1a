/// Body of `POST /auth/password/change` (bearer): `{"currentPassword", "newPassword"}`; answered `200 {}`, the
/// account's other sessions revoked and the caller's kept.
public struct PasswordChangeRequest: Codable, Sendable, Equatable {
    /// The password the account has now; a wrong one is `401 invalid_credentials` and counts as a failed login.
    public var currentPassword: String
    /// The new password, under the same rules as `RegisterRequest.password`.
    public var newPassword: String

    /// Creates the body.
    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}
