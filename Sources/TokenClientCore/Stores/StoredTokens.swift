public import AuthAPI
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a ``TokenStore`` keeps between launches: the bearer pair, when the access token stops being
/// usable, and the user it belongs to.
public struct StoredTokens: Codable, Sendable, Equatable {
    /// The access token (a JWS), sent as `Authorization: Bearer …`.
    public var accessToken: String
    /// The opaque refresh token; rotated by every refresh.
    public var refreshToken: String
    /// Receipt time plus `expiresIn`; `nil` when unknown (then only a 401 triggers a refresh).
    public var accessTokenExpiresAt: Date?
    /// The signed-in account, when known.
    public var user: User?
    /// When the refresh token stops working (the server's `refreshExpiresAt` on the device clock); `nil` when the
    /// server did not say. A session refused after it is signed out with ``SignOutReason/expired``.
    public var refreshTokenExpiresAt: Date?
    /// The answer's `tokenType`: `"Bearer"`, or `"DPoP"` for a session bound to the session's DPoP key (its access
    /// token then goes out as `Authorization: DPoP …` with a proof). Tokens stored before it existed read as
    /// `"Bearer"`.
    public var tokenType: String

    /// Creates a token record.
    public init(
        accessToken: String, refreshToken: String, accessTokenExpiresAt: Date? = nil, user: User? = nil,
        refreshTokenExpiresAt: Date? = nil, tokenType: String = TokenResponse.bearerType
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.user = user
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.tokenType = tokenType
    }

    /// Decodes stored tokens; a record without `tokenType` (written before DPoP) is a `"Bearer"` one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decode(String.self, forKey: .refreshToken)
        accessTokenExpiresAt = try container.decodeIfPresent(Date.self, forKey: .accessTokenExpiresAt)
        user = try container.decodeIfPresent(User.self, forKey: .user)
        refreshTokenExpiresAt = try container.decodeIfPresent(Date.self, forKey: .refreshTokenExpiresAt)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType) ?? TokenResponse.bearerType
    }

    /// True when the tokens are bound to a DPoP key (``tokenType`` `DPoP`, any case).
    public var isDPoPBound: Bool { tokenType.lowercased() == TokenResponse.dpopType.lowercased() }

    /// The `Authorization` value that presents the access token: `DPoP <token>` when bound, else `Bearer <token>`.
    var authorizationValue: String {
        (isDPoPBound ? TokenResponse.dpopType : TokenResponse.bearerType) + " " + accessToken
    }
}

/// Printing, interpolating, `dump` and the debugger show `<redacted>` in place of both tokens.
extension StoredTokens: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { Redacted.describe("StoredTokens", shownFields) }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Redacted.mirror(self, shownFields) }

    private var shownFields: KeyValuePairs<String, Any> {
        [
            "accessToken": Redacted(), "refreshToken": Redacted(), "accessTokenExpiresAt": accessTokenExpiresAt as Any,
            "user": user as Any, "refreshTokenExpiresAt": refreshTokenExpiresAt as Any, "tokenType": tokenType,
        ]
    }
}
