/// `AuthenticationExtensionsClientOutputsJSON`: tokenvend asks for no extension; `credProps` is kept when a
/// platform reports it.
public struct PasskeyClientExtensionResults: Codable, Sendable, Equatable {
    /// `credProps`: `{"rk"}`, whether the credential is discoverable.
    public struct CredentialProperties: Codable, Sendable, Equatable {
        /// Whether the credential is discoverable (a passkey).
        public var rk: Bool?

        /// Creates the member.
        public init(rk: Bool? = nil) { self.rk = rk }
    }

    /// `credProps`, when reported.
    public var credProps: CredentialProperties?

    /// Creates the results (`{}` by default).
    public init(credProps: CredentialProperties? = nil) { self.credProps = credProps }
}
