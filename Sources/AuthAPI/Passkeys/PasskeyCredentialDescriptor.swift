/// WebAuthn's `PublicKeyCredentialDescriptorJSON`: `{"type": "public-key", "id", "transports"?}`.
public struct PasskeyCredentialDescriptor: Codable, Sendable, Equatable {
    /// Always `public-key`.
    public var type: String
    /// The credential id, base64url.
    public var id: String
    /// The transports the authenticator reported at registration (`internal`, `hybrid`, …), when it did.
    public var transports: [String]?

    /// Creates a descriptor.
    public init(type: String = "public-key", id: String, transports: [String]? = nil) {
        self.type = type
        self.id = id
        self.transports = transports
    }
}
