/// Answer of `POST /auth/nonce` (200): `{"nonce", "expiresIn"}`.
///
/// The nonce is for one ID-token sign-in: the app hands it (Google) or its SHA-256 hex (Apple) to the provider's
/// SDK, then sends it back with the token to `POST /auth/idtoken`, which consumes it.
public struct NonceResponse: Codable, Sendable, Equatable {
    /// 32 random bytes, base64url without padding (43 characters); used once.
    public var nonce: String
    /// Seconds until the server forgets the nonce: 600 (10 minutes).
    public var expiresIn: Int

    /// Creates a nonce answer.
    public init(nonce: String, expiresIn: Int) {
        self.nonce = nonce
        self.expiresIn = expiresIn
    }
}
