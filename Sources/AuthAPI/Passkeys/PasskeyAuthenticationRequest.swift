/// Body of `POST /auth/passkeys/authentication`: `{"credential"}`; answered with the login body.
public struct PasskeyAuthenticationRequest: Codable, Sendable, Equatable {
    /// The assertion the platform made from the options.
    public var credential: PasskeyAssertionCredential

    /// Creates the body.
    public init(credential: PasskeyAssertionCredential) { self.credential = credential }
}
