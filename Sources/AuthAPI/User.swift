/// An account as the API shows it: `{"id", "email"?, "emailVerified", "role", "tenantId"}`.
///
/// `tenantId` is encoded as JSON `null` when absent, so the key is always present on the wire; `email` is
/// omitted when the account has none (made from an Apple or Google identity without a verified email).
public struct User: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier (for example a UUID string).
    public var id: String
    /// Normalised email address (Unicode NFKC, lowercase, trimmed), or nil for an account without one.
    public var email: String?
    /// Whether the email was proved: by a code sent to it, by an operator, or by an identity provider that vouched
    /// for it. Servers before issue 32 do not send it; it decodes as false then.
    public var emailVerified: Bool
    /// Role name; `"user"` unless an operator set another.
    public var role: String
    /// Tenant the account belongs to, or `nil`; `tenantId` on the wire.
    public var tenantID: String?

    /// Creates a user value.
    public init(
        id: String, email: String?, emailVerified: Bool = false, role: String = "user", tenantID: String? = nil
    ) {
        self.id = id
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
    @available(*, deprecated, renamed: "init(id:email:role:tenantID:)")
    public init(id: String, email: String?, role: String = "user", tenantId: String?) {
        self.init(id: id, email: email, role: role, tenantID: tenantId)
    }

    private enum CodingKeys: String, CodingKey {
        case id, email, emailVerified, role
        case tenantID = "tenantId"
    }

    /// Decodes a user; a missing `emailVerified` (a server before issue 32) reads as false.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified) ?? false
        role = try container.decode(String.self, forKey: .role)
        tenantID = try container.decodeIfPresent(String.self, forKey: .tenantID)
    }

    /// Encodes every member; a missing `tenantId` becomes `null`, a missing `email` is omitted.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encode(role, forKey: .role)
        try container.encode(tenantID, forKey: .tenantID)
    }
}
