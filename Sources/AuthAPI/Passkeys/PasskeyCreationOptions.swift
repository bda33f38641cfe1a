/// Answer of `POST /auth/passkeys/registration/options` and `POST /auth/passkeys/signup/options` (200): WebAuthn
/// Level 3's `PublicKeyCredentialCreationOptionsJSON`, every binary member as base64url without padding.
///
/// Hand it to the platform (on Apple platforms `ASAuthorizationPlatformPublicKeyCredentialProvider`, on Android
/// Credential Manager's `CreatePublicKeyCredentialRequest(requestJson:)`), then send the credential it makes to
/// `POST /auth/passkeys/registration` or `/auth/passkeys/signup` before `timeout` ends.
public struct PasskeyCreationOptions: Codable, Sendable, Equatable {
    /// The relying party: `{"id", "name"}` (`passkeys.rpId`, `passkeys.rpName`).
    public struct RelyingParty: Codable, Sendable, Equatable {
        /// The RP id, a domain (`example.com`).
        public var id: String
        /// The name shown by the platform.
        public var name: String

        /// Creates the member.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// The account: `{"id", "name", "displayName"}`.
    public struct User: Codable, Sendable, Equatable {
        /// The account's opaque user handle (base64url, at most 64 bytes decoded): the same for every ceremony of one
        /// account, never its email or its account id.
        public var id: String
        /// The name the platform shows (the email, when there is one).
        public var name: String
        /// The display name the platform shows.
        public var displayName: String

        /// Creates the member.
        public init(id: String, name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    /// One of `pubKeyCredParams`: `{"type": "public-key", "alg"}` (COSE: −7 ES256, −8 EdDSA, −257 RS256).
    public struct Parameters: Codable, Sendable, Equatable {
        /// Always `public-key`.
        public var type: String
        /// The COSE algorithm number.
        public var alg: Int

        /// Creates the member.
        public init(type: String = "public-key", alg: Int) {
            self.type = type
            self.alg = alg
        }
    }

    /// `authenticatorSelection`: `{"residentKey": "required", "requireResidentKey": true, "userVerification"}`.
    public struct AuthenticatorSelection: Codable, Sendable, Equatable {
        /// Always `required`: passkeys are discoverable credentials.
        public var residentKey: String
        /// `true` (the Level 1 form of `residentKey`).
        public var requireResidentKey: Bool?
        /// `required`, `preferred` or `discouraged` (`passkeys.userVerification`).
        public var userVerification: String

        /// Creates the member.
        public init(residentKey: String = "required", requireResidentKey: Bool? = true, userVerification: String) {
            self.residentKey = residentKey
            self.requireResidentKey = requireResidentKey
            self.userVerification = userVerification
        }
    }

    /// A new challenge (32 random bytes, base64url), used once, on any instance.
    public var challenge: String
    /// The relying party.
    public var rp: RelyingParty
    /// The account the passkey will sign in to.
    public var user: User
    /// ES256, EdDSA and RS256, in that order.
    public var pubKeyCredParams: [Parameters]
    /// The account's passkeys, so that one authenticator does not register twice.
    public var excludeCredentials: [PasskeyCredentialDescriptor]
    /// Discoverable credentials and the configured user verification.
    public var authenticatorSelection: AuthenticatorSelection
    /// Always `none`: tokenvend trusts no attestation statement.
    public var attestation: String
    /// Milliseconds the challenge lives (`passkeys.timeoutSeconds` × 1000).
    public var timeout: Int

    /// Creates the options.
    public init(
        challenge: String, rp: RelyingParty, user: User, pubKeyCredParams: [Parameters],
        excludeCredentials: [PasskeyCredentialDescriptor], authenticatorSelection: AuthenticatorSelection,
        attestation: String = "none", timeout: Int
    ) {
        self.challenge = challenge
        self.rp = rp
        self.user = user
        self.pubKeyCredParams = pubKeyCredParams
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
        self.timeout = timeout
    }
}
