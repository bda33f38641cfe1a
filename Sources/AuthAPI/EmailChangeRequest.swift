/// Body of `POST /auth/email/change` (bearer): `{"newEmail", "currentPassword"?}`; answered `202 {}` with a code
/// sent to the new address, which `POST /auth/email/change/confirm` takes.
public struct EmailChangeRequest: Codable, Sendable, Equatable {
    /// The address to move to; the server normalises it. `409 email_taken` when another account has it.
    public var newEmail: String
    /// Required when the account has a password; leave nil (omitted) for an account without one.
    public var currentPassword: String?

    /// Creates the body.
    public init(newEmail: String, currentPassword: String? = nil) {
        self.newEmail = newEmail
        self.currentPassword = currentPassword
    }
}
