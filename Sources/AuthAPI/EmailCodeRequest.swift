/// Body of `POST /auth/email/verification/confirm` and `POST /auth/email/change/confirm` (bearer): `{"code"}`.
public struct EmailCodeRequest: Codable, Sendable, Equatable {
    /// The code from the email: `email.codeLength` digits (6 by default).
    public var code: String

    /// Creates the body.
    public init(code: String) {
        self.code = code
    }
}
