/// Body of `POST /auth/passkeys/signup/options`: `{"email"?}`; an email, when given, becomes the new account's
/// (unverified) email and the passkey's user name.
public struct PasskeySignUpOptionsRequest: Codable, Sendable, Equatable {
    /// The new account's email, or nil for an account without one.
    public var email: String?

    /// Creates the body.
    public init(email: String? = nil) { self.email = email }
}
