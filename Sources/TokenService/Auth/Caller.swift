/// Who made an authenticated request: the verified access token's claims, checked against a live session.
struct Caller: Sendable {
    let userID: String
    let sessionID: String
    /// The verified email; nil for an account without one, or whose email is not verified.
    let email: String?
    let role: String
    let tenantID: String?
    /// Whether the caller's email is verified (`vendors.<name>.requireVerifiedEmail`).
    var isEmailVerified: Bool { email != nil }
    /// Whether the token came from the access cookie (cookie mode) rather than `Authorization`.
    let viaCookie: Bool
    /// The token's `auth_time` (when the session signed in, Unix seconds); nil for a token from before issue 33.
    let authTime: Int64?
}

/// A caller with the customer ids read in the same transaction as its session check (`POST /stream-token`).
struct CallerWithCustomerIDs: Sendable {
    let caller: Caller
    let customerIDs: [String: String]
}
