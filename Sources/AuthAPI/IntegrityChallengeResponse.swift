/// Answer of `POST /integrity/challenge` (200): `{"challenge", "expiresIn"}`.
///
/// The challenge is for one attestation, assertion or Play Integrity request: an iOS app passes
/// `SHA256(challenge's UTF-8 bytes)` as the `clientDataHash` of `attestKey` / `generateAssertion`; an Android app
/// passes it as the `nonce` of its classic Play Integrity request. The server consumes it at `/integrity/*`.
public struct IntegrityChallengeResponse: Codable, Sendable, Equatable {
    /// 32 random bytes, base64url without padding (43 characters); used once, on any instance.
    public var challenge: String
    /// Seconds until the server forgets the challenge: 300.
    public var expiresIn: Int

    /// Creates a challenge answer.
    public init(challenge: String, expiresIn: Int) {
        self.challenge = challenge
        self.expiresIn = expiresIn
    }
}
