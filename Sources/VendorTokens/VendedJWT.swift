/// A signed vendor token and its lifetime.
public struct VendedJWT: Sendable, Equatable {
    /// The compact JWS.
    public let token: String
    /// Seconds the token is valid for: the template's `ttlSeconds`.
    public let expiresIn: Int
    /// The `exp` claim: `now + ttlSeconds`, Unix seconds.
    public let expiresAt: Int64
    /// The `kid` of the key that signed it (for logs; also when the header carries no `kid`).
    public let kid: String

    /// Creates a value.
    public init(token: String, expiresIn: Int, expiresAt: Int64, kid: String) {
        self.token = token
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
        self.kid = kid
    }
}
