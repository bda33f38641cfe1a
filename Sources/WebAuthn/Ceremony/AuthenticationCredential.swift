package import StrictJSON

/// An `AuthenticationResponseJSON` as the server reads it: `{"id", "rawId", "type": "public-key", "response":
/// {"clientDataJSON", "authenticatorData", "signature", "userHandle"?}, …}`, every binary member base64url (padding
/// tolerated); unknown members ignored.
public struct AuthenticationCredential: Sendable, Equatable {
    /// `id` as sent.
    public var id: String
    /// `rawId`, decoded.
    public var rawID: [UInt8]
    /// `response.clientDataJSON`, decoded.
    public var clientDataJSON: [UInt8]
    /// `response.authenticatorData`, decoded.
    public var authenticatorData: [UInt8]
    /// `response.signature`, decoded.
    public var signature: [UInt8]
    /// `response.userHandle`, decoded; nil when absent or `null`.
    public var userHandle: [UInt8]?

    /// The largest authenticator data accepted, in bytes.
    public static let maximumAuthenticatorDataBytes = 16 * 1024
    /// The largest signature accepted, in bytes (RSA-4096 signs 512).
    public static let maximumSignatureBytes = 1_024
    /// The largest user handle accepted, in bytes (WebAuthn's limit).
    public static let maximumUserHandleBytes = 64

    /// Reads the credential member of a request body.
    /// - Throws: `.malformed` for a member missing or of the wrong type, `type` other than `public-key`, base64url
    ///   that does not decode, or a size cap crossed (client data 4 KiB, authenticator data 16 KiB, signature
    ///   1 KiB, user handle 64 bytes, `rawId` 4 KiB).
    package init(json: JSONValue) throws(WebAuthnError) {
        let members = try CredentialMembers(json)
        let response = members.response
        id = members.id
        rawID = members.rawID
        clientDataJSON = try CredentialMembers.bytes(
            response, "clientDataJSON", maximumBytes: CollectedClientData.maximumBytes)
        authenticatorData = try CredentialMembers.bytes(
            response, "authenticatorData", maximumBytes: Self.maximumAuthenticatorDataBytes)
        signature = try CredentialMembers.bytes(response, "signature", maximumBytes: Self.maximumSignatureBytes)
        if let handle = response["userHandle"], handle != .null {
            userHandle = try CredentialMembers.bytes(
                response, "userHandle", maximumBytes: Self.maximumUserHandleBytes)
        } else {
            userHandle = nil
        }
    }
}
