public import JWT

/// Sign in with Apple's REST API for one provider (`identityProviders.<name>` on the `apple` preset, with
/// `teamId`, `keyId`, `privateKeyFile` and `clientId`): what ``AppleClientSecret`` signs with and where
/// ``AppleRESTClient`` redeems authorization codes and revokes refresh tokens.
///
/// The key is the `.p8` Apple issued (PKCS#8, EC P-256), loaded with `JWTKey(signingMaterial:kid:algorithm:)`;
/// its text is never shown. Equal when every member and the key's PEM text are equal.
public struct AppleRESTConfiguration: Sendable, Equatable {
    /// Apple's default token endpoint.
    public static let defaultTokenURL = "https://appleid.apple.com/auth/token"
    /// Apple's default revocation endpoint.
    public static let defaultRevokeURL = "https://appleid.apple.com/auth/revoke"
    /// The `aud` of every client secret: Apple's issuer.
    public static let audience = "https://appleid.apple.com"

    /// The Apple Developer team id: the client secret's `iss`.
    public let teamId: String
    /// The key id of the `.p8`: the client secret's `kid`.
    public let keyId: String
    /// The app's bundle id (or Services ID): `client_id`, and the client secret's `sub`.
    public let clientId: String
    /// Where authorization codes are redeemed (`grant_type=authorization_code`). Default: ``defaultTokenURL``.
    public let tokenURL: String
    /// Where refresh tokens are revoked. Default: ``defaultRevokeURL``.
    public let revokeURL: String
    /// The ES256 signing key, `kid` ``keyId``.
    public let signingKey: JWTKey
    private let pem: String

    /// A configuration whose key is the PKCS#8 PEM text `privateKeyPEM`.
    /// - Throws: `JWTError.unusableSigningKey` when the text is not an EC P-256 private key.
    public init(
        teamId: String, keyId: String, clientId: String, privateKeyPEM: String,
        tokenURL: String = Self.defaultTokenURL, revokeURL: String = Self.defaultRevokeURL
    ) throws(JWTError) {
        signingKey = try JWTKey(signingMaterial: privateKeyPEM, kid: keyId, algorithm: .es256)
        self.teamId = teamId
        self.keyId = keyId
        self.clientId = clientId
        self.tokenURL = tokenURL
        self.revokeURL = revokeURL
        pem = privateKeyPEM
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.teamId == rhs.teamId && lhs.keyId == rhs.keyId && lhs.clientId == rhs.clientId
            && lhs.tokenURL == rhs.tokenURL && lhs.revokeURL == rhs.revokeURL && lhs.pem == rhs.pem
    }
}
