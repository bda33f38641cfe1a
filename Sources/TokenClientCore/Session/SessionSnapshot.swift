public import AuthAPI
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The session as it is at one instant, readable synchronously from any thread through
/// ``AuthSession/snapshot``: for APIs that cannot `await` (Moya's `AccessTokenPlugin`, Bloomreach's
/// `getAuthorizationToken()`).
///
/// The access token may have expired: check ``accessTokenExpiresAt`` or use ``AuthSession/accessToken()`` where
/// awaiting is possible.
public struct SessionSnapshot: Sendable, Equatable {
    /// The state.
    public var state: SessionState
    /// The access token, when signed in (and the store could be read).
    public var accessToken: String?
    /// When the access token stops being usable, when known.
    public var accessTokenExpiresAt: Date?
    /// The signed-in user, when known.
    public var user: User?
    /// The access token's type: `"Bearer"`, or `"DPoP"` for a bound session, whose token is useless without a
    /// proof (send such requests through ``AuthSession/authorize(_:)`` instead).
    public var tokenType: String?

    /// Creates a snapshot.
    public init(
        state: SessionState, accessToken: String? = nil, accessTokenExpiresAt: Date? = nil, user: User? = nil,
        tokenType: String? = nil
    ) {
        self.state = state
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.user = user
        self.tokenType = tokenType
    }
}

/// Printing, interpolating, `dump` and the debugger show `<redacted>` in place of the access token.
extension SessionSnapshot: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { Redacted.describe("SessionSnapshot", shownFields) }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Redacted.mirror(self, shownFields) }

    private var shownFields: KeyValuePairs<String, Any> {
        [
            "state": state, "accessToken": Redacted.optional(accessToken) as Any,
            "accessTokenExpiresAt": accessTokenExpiresAt as Any, "user": user as Any, "tokenType": tokenType as Any,
        ]
    }
}
