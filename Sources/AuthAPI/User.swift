/// An account as the API shows it: `{"id", "email"?, "role", "tenantId"}`.
///
/// `tenantId` is encoded as JSON `null` when absent, so the key is always present on the wire; `email` is
/// omitted when the account has none (made from an Apple or Google identity without a verified email).
public struct User: Codable, Sendable, Equatable, Hashable {
    /// Opaque, stable identifier (for example a UUID string).
    public var id: String
    /// Normalised email address (Unicode NFKC, lowercase, trimmed), or nil for an account without one.
    public var email: String?
    /// Role name; `"user"` unless an operator set another.
    public var role: String
    /// Tenant the account belongs to, or `nil`.
    public var tenantId: String?

    /// Creates a user value.
    public init(id: String, email: String?, role: String = "user", tenantId: String? = nil) {
        self.id = id
        self.email = email
        self.role = role
        self.tenantId = tenantId
    }

    private enum CodingKeys: String, CodingKey {
        case id, email, role, tenantId
    }

    /// Encodes every member; a missing `tenantId` becomes `null`, a missing `email` is omitted.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encode(role, forKey: .role)
        try container.encode(tenantId, forKey: .tenantId)
    }
}
