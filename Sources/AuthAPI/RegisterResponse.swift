/// Answer of `POST /auth/register` (201): `{"user": User}`.
public struct RegisterResponse: Codable, Sendable, Equatable {
    /// The account just created.
    public var user: User

    /// Creates a registration answer.
    public init(user: User) {
        self.user = user
    }
}
