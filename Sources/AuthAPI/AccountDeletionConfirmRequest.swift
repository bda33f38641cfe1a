/// Body of `POST /auth/account/deletion/confirm`: `{"email", "code"}`, the `deletion` code that
/// `POST /auth/account/deletion` sent to the address. Also accepted as a form body
/// (`application/x-www-form-urlencoded`), for the page at `GET /account/delete`.
public struct AccountDeletionConfirmRequest: Codable, Sendable, Equatable {
    /// The account's email address; the server normalises it.
    public var email: String
    /// The code from the message.
    public var code: String

    /// Creates the body.
    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}
