import JWT

extension BrowserProvider {
    /// The browser provider of a configured entry, once tokenvend's callback URL and HTTP client are known.
    ///
    /// - Parameters:
    ///   - configured: The entry (its name, audiences and algorithms).
    ///   - client: The entry's browser client (`configured.browser`).
    ///   - callbackURL: `<server.publicURL>/auth/oauth/<name>/callback`.
    ///   - maxTokenAge: `identity.maxTokenAgeSeconds`.
    /// - Throws: `BrowserProviderError` naming the member refused (`.keyCannotSign` for a private key that does
    ///   not load).
    public init(
        configured: ConfiguredProvider, client: BrowserClientConfiguration, callbackURL: String, maxTokenAge: Duration,
        http: any OAuthHTTPClient, discovery: DiscoveryCache, keys: ProviderKeyCache
    ) throws(BrowserProviderError) {
        let authentication: ClientAuthentication
        switch client.credential {
        case .secretBasic(let secret): authentication = .secretBasic(secret)
        case .secretPost(let secret): authentication = .secretPost(secret)
        case .privateKey(let pem, let keyId):
            guard let key = try? JWTKey(kid: keyId ?? client.clientId, algorithm: .es256, pem: pem) else {
                throw .keyCannotSign
            }
            authentication = .privateKeyJWT(key: key)
        }
        try self.init(
            name: configured.name, clientId: client.clientId, authentication: authentication, scopes: client.scopes,
            callbackURL: callbackURL, endpoints: client.endpoints, audiences: configured.audiences,
            algorithms: configured.algorithms, maxTokenAge: maxTokenAge, http: http, discovery: discovery, keys: keys)
    }
}
