/// Who asks for a vendor token: taken from the verified access token and the live session only, never from the
/// request body, so a caller can never name another identity.
public struct VendorCaller: Sendable {
    /// The tokenvend user id (the access token's `sub`): `{{user.id}}`.
    public var userID: String
    /// The session id: `{{session.id}}`.
    public var sessionID: String
    /// The user's verified email, `nil` when the account has none or it is not verified: `{{user.email}}` (a
    /// `nil` omits the member). TokenService passes only an email the access token asserts as verified.
    public var email: String?
    /// The user's role: `{{user.role}}`, and the key of `allowedByRole`.
    public var role: String
    /// The user's tenant, `nil` when none: `{{user.tenantId}}` (a `nil` omits the member).
    public var tenantID: String?
    /// The caller's customer ids; read only when the template's `needsCustomerIDs`, else empty.
    public var customerIDs: [String: String]

    /// Creates a caller.
    public init(
        userID: String, sessionID: String, email: String?, role: String, tenantID: String?,
        customerIDs: [String: String]
    ) {
        self.userID = userID
        self.sessionID = sessionID
        self.email = email
        self.role = role
        self.tenantID = tenantID
        self.customerIDs = customerIDs
    }
}
