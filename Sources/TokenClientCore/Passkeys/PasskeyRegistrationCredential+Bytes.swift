public import AuthAPI

extension PasskeyRegistrationCredential {
    /// The JSON form (`RegistrationResponseJSON`) of a credential a platform made, from its raw members: every binary
    /// one base64url without padding, `rawId` equal to `id`, `type` `public-key`, `clientExtensionResults` `{}`.
    /// - Parameters:
    ///   - credentialID: the new credential's id.
    ///   - clientDataJSON: the client data's bytes, as the platform serialised them (never re-encoded: the
    ///     server hashes these bytes).
    ///   - attestationObject: the CBOR attestation object.
    ///   - transports: the authenticator's transports (`internal`, `hybrid`, …), when the platform reports them.
    ///   - authenticatorAttachment: `platform` or `cross-platform`, when the platform reports it.
    public init(
        credentialID: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8], transports: [String]? = nil,
        authenticatorAttachment: String? = nil
    ) {
        let id = Base64URL.encode(credentialID)
        self.init(
            id: id, rawId: id,
            response: Response(
                clientDataJSON: Base64URL.encode(clientDataJSON),
                attestationObject: Base64URL.encode(attestationObject), transports: transports),
            authenticatorAttachment: authenticatorAttachment)
    }
}
