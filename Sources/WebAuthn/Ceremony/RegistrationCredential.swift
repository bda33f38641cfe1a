package import StrictJSON

/// A `RegistrationResponseJSON` as the server reads it: `{"id", "rawId", "type": "public-key", "response":
/// {"clientDataJSON", "attestationObject", "transports"?, …}, …}`, every binary member base64url (padding
/// tolerated). Unknown members are ignored (Level 3 extras such as `authenticatorData`, `publicKey`,
/// `publicKeyAlgorithm`, `clientExtensionResults`, `authenticatorAttachment`).
public struct RegistrationCredential: Sendable, Equatable {
    /// `id` as sent.
    public var id: String
    /// `rawId`, decoded.
    public var rawID: [UInt8]
    /// `response.clientDataJSON`, decoded.
    public var clientDataJSON: [UInt8]
    /// `response.attestationObject`, decoded.
    public var attestationObject: [UInt8]
    /// `response.transports`, at most 8 strings of at most 32 characters each; empty when absent.
    public var transports: [String]

    /// Reads the credential member of a request body.
    /// - Throws: `.malformed` for a member missing or of the wrong type, `type` other than `public-key`, base64url
    ///   that does not decode, or a size cap crossed (client data 4 KiB, attestation object 64 KiB, `rawId` 4 KiB).
    package init(json: JSONValue) throws(WebAuthnError) {
        fatalError("issue 36: pending on branch i36-webauthn")
    }
}
