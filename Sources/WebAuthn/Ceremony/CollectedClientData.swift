import StrictJSON

/// WebAuthn's `CollectedClientData` (§5.8.1), parsed from the `clientDataJSON` bytes: strict JSON, unknown members
/// ignored (Level 3 adds some, and Android adds `androidPackageName`).
public struct CollectedClientData: Sendable, Equatable {
    /// `type`: `webauthn.create` or `webauthn.get` (any string is kept; the verifier checks it).
    public var type: String
    /// `challenge`, decoded from base64url.
    public var challenge: [UInt8]
    /// `origin`, as sent (`https://example.com`, `android:apk-key-hash:…`).
    public var origin: String
    /// `crossOrigin`, false when absent.
    public var crossOrigin: Bool
    /// `topOrigin`, when present.
    public var topOrigin: String?
    /// `androidPackageName` (Android's Credential Manager), when present; informative.
    public var androidPackageName: String?

    /// The largest `clientDataJSON` accepted, in bytes.
    public static let maximumBytes = 4_096

    /// Parses `clientDataJSON`.
    /// - Throws: `.malformed` for bytes over ``maximumBytes``, JSON that does not parse, a top level that is not an
    ///   object, a missing or ill-typed `type`, `challenge` or `origin`, or a challenge that is not base64url.
    ///   `crossOrigin` other than a Boolean, or `topOrigin` or `androidPackageName` other than a string, is
    ///   malformed too (`null` counts as absent).
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maximumBytes else {
            throw .malformed("clientDataJSON over \(Self.maximumBytes) bytes")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw .malformed("clientDataJSON is not JSON (\(error))")
        }
        guard case .object(let object) = value else { throw .malformed("clientDataJSON is not a JSON object") }
        type = try CredentialMembers.string(object, "type")
        guard let challenge = PaddedBase64URL.decode(try CredentialMembers.string(object, "challenge")) else {
            throw .malformed("clientDataJSON challenge is not base64url")
        }
        self.challenge = challenge
        origin = try CredentialMembers.string(object, "origin")
        switch object["crossOrigin"] {
        case nil, .null: crossOrigin = false
        case .bool(let value): crossOrigin = value
        default: throw .malformed("clientDataJSON crossOrigin is not a Boolean")
        }
        topOrigin = try Self.optionalString(object, "topOrigin")
        androidPackageName = try Self.optionalString(object, "androidPackageName")
    }

    /// The string member `name`, nil when absent or `null`.
    private static func optionalString(_ object: JSONObject, _ name: String) throws(WebAuthnError) -> String? {
        switch object[name] {
        case nil, .null: nil
        case .string(let text): text
        default: throw .malformed("clientDataJSON \(name) is not a string")
        }
    }
}
