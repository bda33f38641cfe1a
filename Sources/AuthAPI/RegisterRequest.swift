/// Body of `POST /auth/register`: `{"email", "password", "tenantId"?}`.
public struct RegisterRequest: Codable, Sendable, Equatable {
    /// Email address; the server normalises it.
    public var email: String
    /// Password, 8–128 characters after NFC normalisation (the minimum is configurable on the server).
    public var password: String
    /// Optional tenant; omitted from the JSON when `nil`.
    public var tenantId: String?

    /// Creates a registration body.
    public init(email: String, password: String, tenantId: String? = nil) {
        self.email = email
        self.password = password
        self.tenantId = tenantId
    }
}
