/// Answer of `GET /auth/me`: `{"sub", "email"?, "role", "tenantId"}` (`tenantId` may be `null`; `email` is
/// omitted for an account without one).
public struct MeResponse: Codable, Sendable, Equatable {
    /// The user id (the access token's `sub`).
    public var sub: String
    /// Email address, or nil for an account without one.
    public var email: String?
    /// Role name.
    public var role: String
    /// Tenant, or `nil`; `tenantId` on the wire.
    public var tenantID: String?

    /// Creates a `/auth/me` answer.
    public init(sub: String, email: String?, role: String, tenantID: String? = nil) {
        self.sub = sub
        self.email = email
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
        case sub, email, role
        case tenantID = "tenantId"
    }

    /// Encodes every member; a missing `tenantId` becomes `null`, a missing `email` is omitted.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sub, forKey: .sub)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encode(role, forKey: .role)
        try container.encode(tenantID, forKey: .tenantID)
    }
}
