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

    /// Creates a token record.
    public init(
        accessToken: String, refreshToken: String, accessTokenExpiresAt: Date? = nil, user: User? = nil,
        refreshTokenExpiresAt: Date? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.user = user
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
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
            "user": user as Any, "refreshTokenExpiresAt": refreshTokenExpiresAt as Any,
        ]
    }
}
