/// Body of `POST /auth/password/reset/confirm`: `{"email", "code", "newPassword"}`; answered with the login body
/// (a new session), every other session of the account revoked.
public struct PasswordResetConfirmRequest: Codable, Sendable, Equatable {
    /// The address the code was sent to; the server normalises it.
    public var email: String
    /// The code from the email.
    public var code: String
    /// The new password, under the same rules as `RegisterRequest.password`.
    public var newPassword: String

    /// Creates the body.
    public init(email: String, code: String, newPassword: String) {
        self.email = email
        self.code = code
        self.newPassword = newPassword
    }
}
