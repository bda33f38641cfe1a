/// Body of `POST /integrity/apple/attest`: `{"keyId", "attestation", "challenge"}`.
///
/// The app generated an App Attest key (`DCAppAttestService.generateKey`) and attested it with
/// `attestKey(keyId, clientDataHash: SHA256(challenge's UTF-8 bytes))`.
public struct AppleAttestationRequest: Codable, Sendable, Equatable {
    /// The key id as `DCAppAttestService` gives it: standard base64 of the SHA-256 of the key's public point.
    public var keyId: String
    /// Standard base64 of Apple's CBOR attestation object (at most 16 KiB decoded).
    public var attestation: String
    /// A challenge from `POST /integrity/challenge`, as the server sent it.
    public var challenge: String

    /// Creates an attestation body.
    public init(keyId: String, attestation: String, challenge: String) {
        self.keyId = keyId
        self.attestation = attestation
        self.challenge = challenge
    }
}
