/// Body of `POST /auth/register`: `{"email", "password", "tenantId"?}`.
public struct RegisterRequest: Codable, Sendable, Equatable {
    /// Email address; the server normalises it.
    public var email: String
    /// Password, 12–128 characters counted as Unicode code points as sent (the server's `password.minLength`,
    /// 8–128, default 12), and not one of the 10,000 most common.
    public var password: String
    /// Leave `nil` (omitted from the JSON): servers since issue 30 answer a non-null tenant with 400
    /// `invalid_request`, since only the operator assigns tenants (`tokenvend users set-tenant`).
    /// `tenantId` on the wire.
    public var tenantID: String?

    /// Creates a registration body.
    public init(email: String, password: String, tenantID: String? = nil) {
        self.email = email
        self.password = password
        self.tenantID = tenantID
    }

    /// The Swift name before issue 31 (acronyms are whole words now); the wire name stays `tenantId`.
    @available(*, deprecated, renamed: "tenantID")
    public var tenantId: String? {
        get { tenantID }
        set { tenantID = newValue }
    }

    /// The initializer before issue 31.
    @available(*, deprecated, renamed: "init(email:password:tenantID:)")
    public init(email: String, password: String, tenantId: String?) {
        self.init(email: email, password: password, tenantID: tenantId)
    }

    private enum CodingKeys: String, CodingKey {
        case email, password
        case tenantID = "tenantId"
    }
}
