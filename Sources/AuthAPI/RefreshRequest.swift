/// Body of `POST /auth/refresh` and (optionally) `POST /auth/logout`: `{"refreshToken"}`.
public struct RefreshRequest: Codable, Sendable, Equatable {
    /// The opaque refresh token last received.
    public var refreshToken: String

    /// Creates a refresh body.
    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}
