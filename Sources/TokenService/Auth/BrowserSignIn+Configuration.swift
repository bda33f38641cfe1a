import IdentityProviders
import JWT
import Logging
import Store

extension BrowserSignIn {
    /// The browser providers of `configuration` (entries with `clientId`), sharing one discovery cache over `http`
    /// and the native flow's key cache `keys`.
    /// - Throws: `ConfigurationError.invalidValue` naming the provider when its settings are refused (the loader has
    ///   checked them already, so only a configuration built by hand can fail here), or `server.publicURL` when it
    ///   is missing.
    init(
        configuration: TokenServiceConfiguration, store: any OAuthFlowStoring, http: any OAuthHTTPClient,
        keys: ProviderKeyCache, logger: Logger
    ) throws(ConfigurationError) {
        let discovery = DiscoveryCache(client: http, onEvent: { event in Self.log(event, logger: logger) })
        var providers: [String: BrowserProvider] = [:]
        var redirectURIs: [String: [String]] = [:]
        for settings in configuration.identity.providers {
            guard let browser = settings.browser else { continue }
            guard let publicURL = configuration.publicURL else {
                throw .invalidValue(key: "server.publicURL", source: "", reason: "missing; a provider has clientId")
            }
            providers[settings.name] = try Self.provider(
                settings, browser: browser, callbackURL: "\(publicURL)/auth/oauth/\(settings.name)/callback",
                maxTokenAgeSeconds: configuration.identity.maxTokenAgeSeconds, http: http, discovery: discovery,
                keys: keys)
            redirectURIs[settings.name] = browser.redirectURIs
        }
        self.init(
            providers: providers, redirectURIs: redirectURIs, store: store,
            flowLifetimeSeconds: configuration.identity.flowLifetimeSeconds)
        maxPendingFlows = configuration.identity.maxPendingFlows
    }

    /// The runtime provider of one configured entry.
    static func provider(
        _ settings: TokenServiceConfiguration.IdentityProviderSettings,
        browser: TokenServiceConfiguration.IdentityProviderSettings.BrowserSettings, callbackURL: String,
        maxTokenAgeSeconds: Int, http: any OAuthHTTPClient, discovery: DiscoveryCache, keys: ProviderKeyCache
    ) throws(ConfigurationError) -> BrowserProvider {
        let entry = "identityProviders.\(settings.name)"
        let authentication: ClientAuthentication
        switch (browser.clientAuthentication, browser.clientSecret, browser.clientPrivateKey) {
        case (.clientSecretBasic, let secret?, nil): authentication = .secretBasic(secret.value)
        case (.clientSecretPost, let secret?, nil): authentication = .secretPost(secret.value)
        case (.privateKeyJWT, nil, let pem?):
            do {
                let kid = browser.clientKeyId ?? browser.clientId
                authentication = .privateKeyJWT(key: try JWTKey(kid: kid, algorithm: .es256, pem: pem.value))
            } catch {
                throw .invalidValue(
                    key: entry + ".clientPrivateKeyFile", source: "", reason: "not a usable P-256 private key")
            }
        default:
            throw .invalidValue(
                key: entry + ".clientAuthentication", source: "", reason: "does not match the client credentials")
        }
        let endpoints: BrowserProvider.Endpoints
        switch browser.endpoints {
        case .discovery(let url, let issuer):
            endpoints = .discovery(url: url, issuer: issuer)
        case .explicit(let authorization, let token, let userInfo):
            endpoints = .explicit(
                authorizationURL: authorization, tokenURL: token, userInfoURL: userInfo,
                issuer: settings.isNative ? settings.issuers.first : nil,
                jwksURL: settings.isNative ? settings.jwksURL : nil)
        }
        do {
            return try BrowserProvider(
                name: settings.name, clientId: browser.clientId, authentication: authentication, scopes: browser.scopes,
                callbackURL: callbackURL, endpoints: endpoints, audiences: settings.audiences,
                algorithms: Set(settings.algorithms.compactMap(JWTAlgorithm.init(rawValue:))),
                maxTokenAge: .seconds(maxTokenAgeSeconds), http: http, discovery: discovery, keys: keys)
        } catch {
            throw .invalidValue(key: entry, source: "", reason: "\(error)")
        }
    }

    /// One log line per discovery fetch: `info` when a document was accepted, `warning` when a fetch failed.
    static func log(_ event: DiscoveryCache.Event, logger: Logger) {
        switch event {
        case .fetched(let url, let lifetime):
            logger.info(
                "identity provider discovery document fetched",
                metadata: ["url": "\(url)", "lifetime_seconds": "\(lifetime)"])
        case .fetchFailed(let url, let reason, let holding):
            logger.warning(
                "identity provider discovery document not fetched",
                metadata: ["url": "\(url)", "reason": "\(reason)", "holding_document": "\(holding)"])
        }
    }
}
