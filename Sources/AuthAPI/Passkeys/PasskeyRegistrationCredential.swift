/// WebAuthn Level 3's `RegistrationResponseJSON`: the credential a platform made from ``PasskeyCreationOptions``,
/// every binary member base64url without padding.
public struct PasskeyRegistrationCredential: Codable, Sendable, Equatable {
    /// `AuthenticatorAttestationResponseJSON`.
    public struct Response: Codable, Sendable, Equatable {
        /// The client data, base64url of its JSON bytes (`type` `webauthn.create`).
        public var clientDataJSON: String
        /// The CBOR attestation object, base64url.
        public var attestationObject: String
        /// The authenticator's transports (`internal`, `hybrid`, …), when the platform gives them.
        public var transports: [String]?
        /// Level 3 extra: the authenticator data alone, base64url (the server reads it from the attestation).
        public var authenticatorData: String?
        /// Level 3 extra: the public key as DER SubjectPublicKeyInfo, base64url (informative; the server uses the
        /// COSE key in the authenticator data).
        public var publicKey: String?
        /// Level 3 extra: the key's COSE algorithm.
        public var publicKeyAlgorithm: Int?

        /// Creates the member.
        public init(
            clientDataJSON: String, attestationObject: String, transports: [String]? = nil,
            authenticatorData: String? = nil, publicKey: String? = nil, publicKeyAlgorithm: Int? = nil
        ) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
            self.authenticatorData = authenticatorData
            self.publicKey = publicKey
            self.publicKeyAlgorithm = publicKeyAlgorithm
        }
    }

    /// The credential id, base64url.
    public var id: String
    /// The same id (the JSON form repeats it), base64url.
    public var rawId: String
    /// Always `public-key`.
    public var type: String
    /// The authenticator's response.
    public var response: Response
    /// `platform` or `cross-platform`, when the platform says.
    public var authenticatorAttachment: String?
    /// The client extension results (tokenvend asks for none; sent as `{}`).
    public var clientExtensionResults: PasskeyClientExtensionResults

    /// Creates a credential.
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
