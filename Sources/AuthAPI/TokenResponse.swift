/// Answer of `POST /auth/login`, `POST /auth/refresh`, `POST /auth/idtoken` and `POST /auth/token`.
///
/// Bearer strategy: `{"accessToken", "refreshToken", "tokenType": "Bearer", "expiresIn", "expiresAt",
/// "refreshExpiresAt", "user"}`. Cookie strategy: `{"expiresIn", "expiresAt", "refreshExpiresAt", "user"}` only (the
/// tokens travel in `Set-Cookie`), so the token members are optional and omitted from the JSON when `nil`.
public struct TokenResponse: Codable, Sendable, Equatable {
    /// Access token (a JWS); `nil` in cookie mode.
    public var accessToken: String?
    /// Opaque refresh token; `nil` in cookie mode.
    public var refreshToken: String?
    /// `"DPoP"` when the session is bound to a DPoP key (send the access token as `Authorization: DPoP <token>`
    /// with a proof), else `"Bearer"`; `nil` in cookie mode.
    public var tokenType: String?
    /// Lifetime of the access token in seconds, counted from the response.
    public var expiresIn: Int
    /// When the access token expires, in Unix seconds: its JWT `exp`. Unlike ``expiresIn`` it does not depend on
    /// when the answer was read (an app suspended in between). Optional when decoding, so answers of servers
    /// before it still decode; omitted from the JSON when `nil`.
    public var expiresAt: Int64?
    /// When the refresh token stops working at the latest, in Unix seconds: the earlier of its sliding expiry and
    /// the session's absolute lifetime (a refresh moves it on, never past the absolute end). Optional like
    /// ``expiresAt``.
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

    /// `tokenType` of an unbound session.
    public static let bearerType = "Bearer"
    /// `tokenType` of a session bound to a DPoP key (RFC 9449 §5).
    public static let dpopType = "DPoP"

    /// A bearer-mode answer with `tokenType` `"Bearer"`, or `"DPoP"` when `tokenType` says so.
    public static func bearer(
        accessToken: String, refreshToken: String, expiresIn: Int, expiresAt: Int64? = nil,
        refreshExpiresAt: Int64? = nil, user: User, tokenType: String = bearerType
    ) -> Self {
        Self(
            accessToken: accessToken,
            refreshToken: refreshToken,
            tokenType: tokenType,
            expiresIn: expiresIn,
            expiresAt: expiresAt,
            refreshExpiresAt: refreshExpiresAt,
            user: user
        )
    }
}
