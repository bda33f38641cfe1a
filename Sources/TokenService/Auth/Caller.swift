/// Who made an authenticated request: the verified access token's claims, checked against a live session.
struct Caller: Sendable {
    let userID: String
    let sessionID: String
    /// Nil for an account without an email.
    let email: String?
    let role: String
    let tenantID: String?
    /// Whether the token came from the access cookie (cookie mode) rather than `Authorization`.
    let viaCookie: Bool
}

/// A caller with the customer ids read in the same transaction as its session check (`POST /stream-token`).
struct CallerWithCustomerIDs: Sendable {
    let caller: Caller
    let customerIDs: [String: String]
}
