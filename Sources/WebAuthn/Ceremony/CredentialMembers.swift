import StrictJSON

/// The members a `RegistrationResponseJSON` and an `AuthenticationResponseJSON` share: `id`, `rawId`, `type` and
/// the `response` object, read with the malformed-input rules of both.
struct CredentialMembers {
    /// The largest `rawId` (and `id`) accepted, decoded.
    static let maximumRawIDBytes = 4_096

    /// `id` as sent (checked to be base64url).
    let id: String
    /// `rawId`, decoded.
    let rawID: [UInt8]
    /// `response`.
    let response: JSONObject

    /// Reads `json`: an object with `id` and `rawId` (base64url), `type` `public-key` and a `response` object.
    init(_ json: JSONValue) throws(WebAuthnError) {
        guard case .object(let object) = json else { throw .malformed("credential is not an object") }
        id = try Self.string(object, "id")
        _ = try PaddedBase64URL.decode(id, member: "id", maximumBytes: Self.maximumRawIDBytes)
        rawID = try Self.bytes(object, "rawId", maximumBytes: Self.maximumRawIDBytes)
        guard try Self.string(object, "type") == "public-key" else { throw .malformed("type is not public-key") }
        guard case .object(let response) = object["response"] else {
            throw .malformed("response is missing or not an object")
        }
        self.response = response
    }

    /// The string member `name` of `object`.
    static func string(_ object: JSONObject, _ name: String) throws(WebAuthnError) -> String {
        guard case .string(let text) = object[name] else { throw .malformed("\(name) is missing or not a string") }
        return text
    }

    /// The base64url member `name` of `object`, decoded, at most `maximumBytes`.
    static func bytes(_ object: JSONObject, _ name: String, maximumBytes: Int) throws(WebAuthnError) -> [UInt8] {
        try PaddedBase64URL.decode(string(object, name), member: name, maximumBytes: maximumBytes)
    }
}
