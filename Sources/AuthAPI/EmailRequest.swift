/// Body of `POST /auth/password/reset` and `POST /auth/email/code`: `{"email"}`.
///
/// Both answer `202 {}` whether or not an account has the address, so the answer tells nothing about it.
public struct EmailRequest: Codable, Sendable, Equatable {
    /// Email address; the server normalises it.
    public var email: String

    /// Creates the body.
    public init(email: String) {
        self.email = email
    }
}
