import AuthAPI

/// A logout the server has not acknowledged: what to send again.
struct PendingLogout: Sendable, Equatable {
    /// The session's refresh token, which identifies the session to the server.
    var refreshToken: String
    /// The access token, when it had not expired (`global` can be proved with either).
    var accessToken: String?
    /// `local` or `global`.
    var scope: LogoutScope
    /// The access token's type (`Bearer`, or `DPoP` for a bound session).
    var tokenType: String = TokenResponse.bearerType
    /// The DPoP key the session had when it signed out: it signs this logout (and its retries), held in memory only.
    var dpopKey: (any DPoPKey)?

    /// The same logout: tokens, scope and key (by thumbprint).
    static func == (lhs: PendingLogout, rhs: PendingLogout) -> Bool {
        lhs.refreshToken == rhs.refreshToken && lhs.accessToken == rhs.accessToken && lhs.scope == rhs.scope
            && lhs.tokenType == rhs.tokenType && lhs.dpopKey?.thumbprint == rhs.dpopKey?.thumbprint
    }
}

/// Printing, interpolating, `dump` and the debugger show `<redacted>` in place of both tokens.
extension PendingLogout: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    var description: String { Redacted.describe("PendingLogout", shownFields) }
    var debugDescription: String { description }
    var customMirror: Mirror { Redacted.mirror(self, shownFields) }

    private var shownFields: KeyValuePairs<String, Any> {
        [
            "refreshToken": Redacted(), "accessToken": Redacted.optional(accessToken) as Any, "scope": scope,
            "tokenType": tokenType, "dpopKey": dpopKey.map { _ in Redacted() } as Any,
        ]
    }
}
