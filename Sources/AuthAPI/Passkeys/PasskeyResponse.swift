/// Answer of `POST /auth/passkeys/registration` (201) and `PATCH /auth/passkeys/{id}` (200): `{"passkey"}`.
public struct PasskeyResponse: Codable, Sendable, Equatable {
    /// The passkey registered or renamed.
    public var passkey: PasskeyInfo

    /// Creates the answer.
    public init(passkey: PasskeyInfo) { self.passkey = passkey }
}
