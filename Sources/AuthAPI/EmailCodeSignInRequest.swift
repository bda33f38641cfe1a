/// Body of `POST /auth/email/code/confirm`: `{"email", "code"}`; answered with the login body plus `created`.
public struct EmailCodeSignInRequest: Codable, Sendable, Equatable {
    /// The address the code was sent to; the server normalises it.
    public var email: String
    /// The code from the email.
    public var code: String

    /// Creates the body.
    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}
