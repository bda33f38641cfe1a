/// Body of `POST /auth/idtoken`: `{"provider", "idToken", "nonce"?, "name"?: {"givenName"?, "familyName"?},
/// "authorizationCode"?}`.
///
/// The app signs in with the provider's SDK (Sign in with Apple, Google Sign-In), then hands the ID token it got
/// to tokenvend, which checks it against the provider's published keys and answers like `POST /auth/login`.
public struct IDTokenSignInRequest: Codable, Sendable, Equatable {
    /// The provider's name in tokenvend's configuration (`identityProviders.<name>`), e.g. `"apple"`.
    public var provider: String
    /// The ID token (a JWS) the provider's SDK returned.
    public var idToken: String
    /// The raw nonce of this sign-in: one `POST /auth/nonce` issued (required while the server's
    /// `identity.requireServerNonce` is on, and consumed by the sign-in). With Apple, the app passes the SHA-256
    /// hex of this value to the SDK and sends the value itself here. Omitted when `nil`.
    public var nonce: String?
    /// The user's name, which Apple gives the app (never in the token) on the first sign-in only. Omitted when
    /// `nil`.
    public var name: PersonName?
    /// Apple's one-time `authorizationCode` from the same sign-in (`ASAuthorizationAppleIDCredential`), when the
    /// provider has Apple's REST API configured: tokenvend redeems it for Apple's refresh token, kept encrypted
    /// to revoke when the account is deleted. A failed redemption does not fail the sign-in. Omitted when `nil`.
    public var authorizationCode: String?

    /// Creates a sign-in body.
    public init(
        provider: String, idToken: String, nonce: String? = nil, name: PersonName? = nil,
        authorizationCode: String? = nil
    ) {
        self.provider = provider
        self.idToken = idToken
        self.nonce = nonce
        self.name = name
        self.authorizationCode = authorizationCode
    }

    /// A person's name as an identity provider's SDK reports it; both members optional.
    public struct PersonName: Codable, Sendable, Equatable {
        /// Given (first) name; omitted when `nil`.
        public var givenName: String?
        /// Family (last) name; omitted when `nil`.
        public var familyName: String?

        /// Creates a name.
        public init(givenName: String? = nil, familyName: String? = nil) {
            self.givenName = givenName
            self.familyName = familyName
        }
    }
}
