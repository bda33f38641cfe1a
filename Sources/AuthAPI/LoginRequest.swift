/// Body of `POST /auth/login`: `{"email", "password"}`.
public struct LoginRequest: Codable, Sendable, Equatable {
    /// Email address; the server normalises it.
    public var email: String
    /// Password.
    public var password: String

    /// Creates a login body.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}
