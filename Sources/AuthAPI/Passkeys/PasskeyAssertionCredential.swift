/// WebAuthn Level 3's `AuthenticationResponseJSON`: the assertion a platform made from ``PasskeyRequestOptions``,
/// every binary member base64url without padding.
public struct PasskeyAssertionCredential: Codable, Sendable, Equatable {
    /// `AuthenticatorAssertionResponseJSON`.
    public struct Response: Codable, Sendable, Equatable {
        /// The client data, base64url of its JSON bytes (`type` `webauthn.get`).
        public var clientDataJSON: String
        /// The authenticator data, base64url.
        public var authenticatorData: String
        /// The signature over `authenticatorData ‖ SHA-256(clientDataJSON)`, base64url.
        public var signature: String
        /// The user handle the passkey was made for, base64url (discoverable credentials always return it).
        public var userHandle: String?

        /// Creates the member.
        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String?) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }

    /// The credential id, base64url.
    public var id: String
    /// The same id, base64url.
    public var rawId: String
    /// Always `public-key`.
    public var type: String
    /// The authenticator's response.
    public var response: Response
    /// `platform` or `cross-platform`, when the platform says.
    public var authenticatorAttachment: String?
    /// The client extension results (sent as `{}`).
    public var clientExtensionResults: PasskeyClientExtensionResults

    /// Creates an assertion.
    public init(
        id: String, rawId: String? = nil, type: String = "public-key", response: Response,
        authenticatorAttachment: String? = nil,
        clientExtensionResults: PasskeyClientExtensionResults = PasskeyClientExtensionResults()
    ) {
        self.id = id
        self.rawId = rawId ?? id
        self.type = type
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
    }
}
