/// Answer of `GET /auth/passkeys` (200): `{"passkeys"}`, oldest first.
public struct PasskeyListResponse: Codable, Sendable, Equatable {
    /// The caller's passkeys, by creation time.
    public var passkeys: [PasskeyInfo]

    /// Creates the answer.
    public init(passkeys: [PasskeyInfo]) { self.passkeys = passkeys }
}
