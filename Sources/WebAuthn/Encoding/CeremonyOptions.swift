/// The options JSON of the two ceremonies (WebAuthn Level 3 `PublicKeyCredentialCreationOptionsJSON` and
/// `PublicKeyCredentialRequestOptionsJSON`), written compactly with every binary member base64url without padding.
public enum CeremonyOptions {
    /// A credential to exclude (`excludeCredentials`).
    public struct Descriptor: Sendable, Equatable {
        /// The credential id.
        public var id: [UInt8]
        /// Its transports, possibly none (then the member is left out).
        public var transports: [String]

        /// Creates a descriptor.
        public init(id: [UInt8], transports: [String]) {
            self.id = id
            self.transports = transports
        }
    }

    /// `{"challenge", "rp": {"id", "name"}, "user": {"id", "name", "displayName"}, "pubKeyCredParams": [ES256,
    /// EdDSA, RS256], "excludeCredentials", "authenticatorSelection": {"residentKey": "required",
    /// "requireResidentKey": true, "userVerification"}, "attestation": "none", "timeout"}` (milliseconds).
    public static func creation(
        challenge: [UInt8], configuration: PasskeyConfiguration, userHandle: [UInt8], userName: String,
        displayName: String, excluding: [Descriptor]
    ) -> [UInt8] {
        fatalError("issue 36: pending on branch i36-webauthn")
    }

    /// `{"challenge", "rpId", "userVerification", "timeout", "allowCredentials": []}`.
    public static func request(challenge: [UInt8], configuration: PasskeyConfiguration) -> [UInt8] {
        fatalError("issue 36: pending on branch i36-webauthn")
    }
}
