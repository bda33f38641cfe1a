/// Answer of `GET /auth/me`: `{"sub", "email"?, "emailVerified", "role", "tenantId"}` (`tenantId` may be `null`;
/// `email` is omitted for an account without one).
public struct MeResponse: Codable, Sendable, Equatable {
    /// The user id (the access token's `sub`).
    public var sub: String
    /// Email address, or nil for an account without one.
    public var email: String?
    /// Whether the email was proved (by a code, an operator or an identity provider); servers before issue 32 do
    /// not send it, and it decodes as false then.
    public var emailVerified: Bool
    /// Role name.
    public var role: String
    /// Tenant, or `nil`; `tenantId` on the wire.
    public var tenantID: String?

    /// Creates a `/auth/me` answer.
    public init(sub: String, email: String?, emailVerified: Bool = false, role: String, tenantID: String? = nil) {
        self.sub = sub
        self.email = email
        self.emailVerified = emailVerified
        self.role = role
        self.tenantID = tenantID
    }

    /// The Swift name before issue 31 (acronyms are whole words now); the wire name stays `tenantId`.
    @available(*, deprecated, renamed: "tenantID")
    public var tenantId: String? {
        get { tenantID }
        set { tenantID = newValue }
    }

    /// The initializer before issue 31.
    @available(*, deprecated, renamed: "init(sub:email:role:tenantID:)")
    public init(sub: String, email: String?, role: String, tenantId: String?) {
        self.init(sub: sub, email: email, role: role, tenantID: tenantId)
    }

    private enum CodingKeys: String, CodingKey {
        case sub, email, emailVerified, role
        case tenantID = "tenantId"
    }

    /// Decodes an answer; a missing `emailVerified` (a server before issue 32) reads as false.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sub = try container.decode(String.self, forKey: .sub)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified) ?? false
        role = try container.decode(String.self, forKey: .role)
        tenantID = try container.decodeIfPresent(String.self, forKey: .tenantID)
    }

    /// Encodes every member; a missing `tenantId` becomes `null`, a missing `email` is omitted.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sub, forKey: .sub)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encode(role, forKey: .role)
        try container.encode(tenantID, forKey: .tenantID)
    }
}
