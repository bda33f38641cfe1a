/// Body of `POST /integrity/android`: `{"integrityToken", "challenge"}`.
///
/// The app requested a classic Play Integrity token with the challenge as its `nonce`.
public struct AndroidIntegrityRequest: Codable, Sendable, Equatable {
    /// The encrypted Play Integrity token (compact JWE, `A256KW` + `A256GCM`, around an `ES256` JWS).
    public var integrityToken: String
    /// A challenge from `POST /integrity/challenge`, as the server sent it.
    public var challenge: String

    /// Creates a Play Integrity body.
    public init(integrityToken: String, challenge: String) {
        self.integrityToken = integrityToken
        self.challenge = challenge
    }
}
