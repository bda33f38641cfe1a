/// Answer of `POST /auth/login`, `POST /auth/refresh` and `POST /auth/idtoken`.
///
/// Bearer strategy: `{"accessToken", "refreshToken", "tokenType": "Bearer", "expiresIn", "user"}`.
/// Cookie strategy: `{"expiresIn", "user"}` only (the tokens travel in `Set-Cookie`), so the token members
/// are optional and omitted from the JSON when `nil`.
public struct TokenResponse: Codable, Sendable, Equatable {
    /// Access token (a JWS); `nil` in cookie mode.
    public var accessToken: String?
    /// Opaque refresh token; `nil` in cookie mode.
    public var refreshToken: String?
    /// Always `"Bearer"` in bearer mode; `nil` in cookie mode.
    public var tokenType: String?
    /// Lifetime of the access token in seconds, counted from the response.
    public var expiresIn: Int
    /// When the access token expires (its `exp`), in Unix seconds; `nil` from servers that do not send it.
    public var expiresAt: Int64?
    /// When the refresh token stops working (the session's sliding or absolute limit, whichever comes first), in
    /// Unix seconds; `nil` from servers that do not send it.
    public var refreshExpiresAt: Int64?
    /// The signed-in account.
    public var user: User
    /// `POST /auth/idtoken` only: true when this sign-in created the account, false when it signed in (or linked)
    /// an existing one. `nil`, and omitted from the JSON, for login and refresh.
    public var created: Bool?

    /// Creates a token answer.
    public init(
        accessToken: String? = nil,
        refreshToken: String? = nil,
        tokenType: String? = nil,
        expiresIn: Int,
        expiresAt: Int64? = nil,
        refreshExpiresAt: Int64? = nil,
        user: User,
        created: Bool? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
        self.refreshExpiresAt = refreshExpiresAt
        self.user = user
        self.created = created
    }

    /// A bearer-mode answer with `tokenType` `"Bearer"`.
    public static func bearer(
        accessToken: String, refreshToken: String, expiresIn: Int, expiresAt: Int64? = nil,
        refreshExpiresAt: Int64? = nil, user: User
    ) -> Self {
        Self(
            accessToken: accessToken,
            refreshToken: refreshToken,
            tokenType: "Bearer",
            expiresIn: expiresIn,
            expiresAt: expiresAt,
            refreshExpiresAt: refreshExpiresAt,
            user: user
        )
    }
}
