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

    /// Reads the credential member of a request body.
    /// - Throws: `.malformed` for a member missing or of the wrong type, `type` other than `public-key`, base64url
    ///   that does not decode, or a size cap crossed (client data 4 KiB, authenticator data 16 KiB, signature
    ///   1 KiB, user handle 64 bytes, `rawId` 4 KiB).
    package init(json: JSONValue) throws(WebAuthnError) {
        fatalError("issue 36: pending on branch i36-webauthn")
    }
}
