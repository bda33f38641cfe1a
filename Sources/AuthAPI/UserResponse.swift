/// Answer of `POST /auth/email/verification/confirm` and `POST /auth/email/change/confirm`: `{"user"}`.
public struct UserResponse: Codable, Sendable, Equatable {
    /// The account after the change (`emailVerified` true).
    public var user: User

    /// Creates the answer.
    public init(user: User) {
        self.user = user
    }
}
