public import AuthAPI

/// ``AuthAPI/PasskeyRequestOptions`` with its base64url members decoded, as platform APIs take them (e.g.
/// `ASAuthorizationPlatformPublicKeyCredentialProvider.createCredentialAssertionRequest(challenge:)`).
public struct PasskeyRequestParameters: Sendable, Equatable {
    /// The RP id, e.g. `example.com`.
    public var relyingPartyID: String
    /// The challenge's bytes.
    public var challenge: [UInt8]
    /// The credentials the server allows; empty (tokenvend's case) for any passkey of the RP.
    public var allowedCredentialIDs: [[UInt8]]
    /// `required`, `preferred` or `discouraged`.
    public var userVerification: String

    /// Decodes `options`.
    /// - Throws: ``TokenClientError/invalidResponse`` when the challenge or an allowed credential id is not
    ///   base64url, or the challenge is empty.
    public init(_ options: PasskeyRequestOptions) throws(TokenClientError) {
        guard let challenge = Base64URL.decode(options.challenge), !challenge.isEmpty else {
            throw .invalidResponse
        }
        var allowed: [[UInt8]] = []
        for descriptor in options.allowCredentials {
            guard let id = Base64URL.decode(descriptor.id) else { throw .invalidResponse }
            allowed.append(id)
        }
        relyingPartyID = options.rpId
        self.challenge = challenge
        allowedCredentialIDs = allowed
        userVerification = options.userVerification
    }
}
