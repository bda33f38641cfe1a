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
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        fatalError("issue 36: pending on branch i36-webauthn")
    }
}
