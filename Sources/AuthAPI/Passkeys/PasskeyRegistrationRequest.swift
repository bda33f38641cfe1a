/// Body of `POST /auth/passkeys/registration` (bearer; answered `201 {"passkey"}`) and of `POST
/// /auth/passkeys/signup` (answered with the login body plus `created: true`): `{"credential", "name"?}`.
public struct PasskeyRegistrationRequest: Codable, Sendable, Equatable {
    /// The credential the platform made from the options.
    public var credential: PasskeyRegistrationCredential
    /// A name for the passkey (1–64 characters after trimming), or nil for the server's default, "Passkey".
    public var name: String?

    /// Creates the body.
    public init(credential: PasskeyRegistrationCredential, name: String? = nil) {
        self.credential = credential
        self.name = name
    }
}
