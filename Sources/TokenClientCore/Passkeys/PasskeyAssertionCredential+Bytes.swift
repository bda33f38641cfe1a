public import AuthAPI

extension PasskeyAssertionCredential {
    /// The JSON form (`AuthenticationResponseJSON`) of an assertion a platform made, from its raw members: every
    /// binary one base64url without padding, `rawId` equal to `id`, `type` `public-key`, `clientExtensionResults`
    /// `{}`.
    /// - Parameters:
    ///   - credentialID: the passkey's id.
    ///   - clientDataJSON: the client data's bytes, as the platform serialised them (the signature covers their
    ///     hash).
    ///   - authenticatorData: the authenticator data.
    ///   - signature: the signature over `authenticatorData ‖ SHA-256(clientDataJSON)`.
    ///   - userHandle: the user handle the passkey was made for; nil (or empty) sends none.
    ///   - authenticatorAttachment: `platform` or `cross-platform`, when the platform reports it.
    public init(
        credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        userHandle: [UInt8]?, authenticatorAttachment: String? = nil
    ) {
        let id = Base64URL.encode(credentialID)
        let handle = userHandle.flatMap { $0.isEmpty ? nil : Base64URL.encode($0) }
        self.init(
            id: id, rawId: id,
            response: Response(
                clientDataJSON: Base64URL.encode(clientDataJSON),
                authenticatorData: Base64URL.encode(authenticatorData), signature: Base64URL.encode(signature),
                userHandle: handle),
            authenticatorAttachment: authenticatorAttachment)
    }
}
