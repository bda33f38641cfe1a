/// The 32-byte AES-256-GCM key of `identity.tokenEncryptionKeyFile`; its description never shows the bytes.
public struct TokenEncryptionKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key.
    public let bytes: [UInt8]

    /// Wraps `bytes` (32 of them; the loader checks).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var description: String { "<token encryption key>" }
    public var debugDescription: String { description }
}
