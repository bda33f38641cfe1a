/// Answer of `POST /integrity/apple/attest`, `/integrity/apple/assert` and `/integrity/android` (200):
/// `{"integrityToken", "expiresIn"}`.
///
/// The app sends the token as `X-App-Integrity: <token>` until it expires, then asserts (iOS) or asks Play
/// again (Android) for a fresh one.
public struct IntegrityTokenResponse: Codable, Sendable, Equatable {
    /// tokenvend's own JWT (`typ` `integrity+jwt`), signed with the access-token keys.
    public var integrityToken: String
    /// Seconds until it expires: at most `integrity.tokenLifetimeSeconds` (default 3600).
    public var expiresIn: Int

    /// Creates an integrity-token answer.
    public init(integrityToken: String, expiresIn: Int) {
        self.integrityToken = integrityToken
        self.expiresIn = expiresIn
    }
}
