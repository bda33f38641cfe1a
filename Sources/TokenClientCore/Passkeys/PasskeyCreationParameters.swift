public import AuthAPI

/// ``AuthAPI/PasskeyCreationOptions`` with its base64url members decoded, as platform APIs take them (e.g.
/// `ASAuthorizationPlatformPublicKeyCredentialProvider.createCredentialRegistrationRequest(challenge:name:userID:)`).
public struct PasskeyCreationParameters: Sendable, Equatable {
    /// The RP id, e.g. `example.com`.
    public var relyingPartyID: String
    /// The challenge's bytes.
    public var challenge: [UInt8]
    /// The account's user handle, its bytes.
    public var userID: [UInt8]
    /// The user name the platform shows.
    public var userName: String
    /// The display name the platform shows.
    public var userDisplayName: String
    /// The ids of the account's passkeys, which the authenticator must not register again.
    public var excludedCredentialIDs: [[UInt8]]
    /// `required`, `preferred` or `discouraged`.
    public var userVerification: String

    /// Decodes `options`.
    /// - Throws: ``TokenClientError/invalidResponse`` when the challenge, the user id or an excluded credential id
    ///   is not base64url, or the challenge or the user id is empty (the server sent options nobody can use).
    public init(_ options: PasskeyCreationOptions) throws(TokenClientError) {
        guard let challenge = Base64URL.decode(options.challenge), !challenge.isEmpty,
            let userID = Base64URL.decode(options.user.id), !userID.isEmpty
        else { throw .invalidResponse }
        var excluded: [[UInt8]] = []
        for descriptor in options.excludeCredentials {
            guard let id = Base64URL.decode(descriptor.id) else { throw .invalidResponse }
            excluded.append(id)
        }
        relyingPartyID = options.rp.id
        self.challenge = challenge
        self.userID = userID
        userName = options.user.name
        userDisplayName = options.user.displayName
        excludedCredentialIDs = excluded
        userVerification = options.authenticatorSelection.userVerification
    }
}
