/// Body of `POST /integrity/apple/assert`: `{"keyId", "assertion", "challenge"}`.
///
/// The app signs with a key attested before: `generateAssertion(keyId, clientDataHash: SHA256(challenge's UTF-8
/// bytes))`.
public struct AppleAssertionRequest: Codable, Sendable, Equatable {
    /// The attested key's id, standard base64, as sent to `/integrity/apple/attest`.
    public var keyId: String
    /// Standard base64 of Apple's CBOR assertion object `{signature, authenticatorData}`.
    public var assertion: String
    /// A challenge from `POST /integrity/challenge`, as the server sent it.
    public var challenge: String

    /// Creates an assertion body.
    public init(keyId: String, assertion: String, challenge: String) {
        self.keyId = keyId
        self.assertion = assertion
        self.challenge = challenge
    }
}
