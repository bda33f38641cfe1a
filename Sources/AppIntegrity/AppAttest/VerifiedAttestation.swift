/// What a verified App Attest attestation establishes: the key to store (`app_attest_keys`) and its app.
public struct VerifiedAttestation: Sendable, Equatable {
    /// The key's public point, uncompressed SEC1 (65 bytes), taken from the leaf certificate.
    public var publicKey: [UInt8]
    /// The app id (`TEAMID.bundle.id`) of `integrity.apple.appIds` whose SHA-256 is the RP id hash.
    public var appID: String
    /// Whether the AAGUID is App Attest's development value (`appattestdevelop`).
    public var isDevelopment: Bool
    /// The attestation's sign counter (always 0 once verified).
    public var counter: UInt32

    /// Creates a verified attestation.
    public init(publicKey: [UInt8], appID: String, isDevelopment: Bool, counter: UInt32) {
        self.publicKey = publicKey
        self.appID = appID
        self.isDevelopment = isDevelopment
        self.counter = counter
    }
}
