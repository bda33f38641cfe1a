/// Answer of `POST /auth/passkeys/authentication/options` (200): WebAuthn Level 3's
/// `PublicKeyCredentialRequestOptionsJSON` for a discoverable credential (empty `allowCredentials`).
public struct PasskeyRequestOptions: Codable, Sendable, Equatable {
    /// A new challenge (32 random bytes, base64url), used once, on any instance.
    public var challenge: String
    /// The RP id (`passkeys.rpId`).
    public var rpId: String
    /// `required`, `preferred` or `discouraged` (`passkeys.userVerification`).
    public var userVerification: String
    /// Milliseconds the challenge lives (`passkeys.timeoutSeconds` × 1000).
    public var timeout: Int
    /// Always empty: the platform offers every passkey it holds for `rpId`.
    public var allowCredentials: [PasskeyCredentialDescriptor]

    /// Creates the options.
    public init(
        challenge: String, rpId: String, userVerification: String, timeout: Int,
        allowCredentials: [PasskeyCredentialDescriptor] = []
    ) {
        self.challenge = challenge
        self.rpId = rpId
        self.userVerification = userVerification
        self.timeout = timeout
        self.allowCredentials = allowCredentials
    }
}
