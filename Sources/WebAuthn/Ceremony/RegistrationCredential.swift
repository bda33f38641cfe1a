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

    /// The largest attestation object accepted, in bytes.
    public static let maximumAttestationObjectBytes = 64 * 1024
    /// The most transports accepted.
    public static let maximumTransports = 8
    /// The longest transport name accepted, in characters.
    public static let maximumTransportLength = 32

    /// Reads the credential member of a request body.
    /// - Throws: `.malformed` for a member missing or of the wrong type, `type` other than `public-key`, base64url
    ///   that does not decode, or a size cap crossed (client data 4 KiB, attestation object 64 KiB, `rawId` 4 KiB).
    package init(json: JSONValue) throws(WebAuthnError) {
        let members = try CredentialMembers(json)
        id = members.id
        rawID = members.rawID
        clientDataJSON = try CredentialMembers.bytes(
            members.response, "clientDataJSON", maximumBytes: CollectedClientData.maximumBytes)
        attestationObject = try CredentialMembers.bytes(
            members.response, "attestationObject", maximumBytes: Self.maximumAttestationObjectBytes)
        transports = try Self.transports(members.response["transports"])
    }

    /// `response.transports`: absent or `null` for none, else an array of short strings.
    private static func transports(_ value: JSONValue?) throws(WebAuthnError) -> [String] {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value else { throw .malformed("transports is not an array") }
        guard items.count <= maximumTransports else { throw .malformed("more than \(maximumTransports) transports") }
        var transports: [String] = []
        for item in items {
            guard case .string(let name) = item, !name.isEmpty, name.count <= maximumTransportLength else {
                throw .malformed("a transport is not a string of 1 to \(maximumTransportLength) characters")
            }
            transports.append(name)
        }
        return transports
    }
}
