import IdentityProviders
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
        for configured in configuration.identity.providers {
            guard let client = configured.browser else { continue }
            guard let publicURL = configuration.publicURL else {
                throw .invalidValue(key: "server.publicURL", source: "", reason: "missing; a provider has clientId")
            }
            do {
                providers[configured.name] = try BrowserProvider(
                    configured: configured, client: client,
                    callbackURL: "\(publicURL)/auth/oauth/\(configured.name)/callback",
                    maxTokenAge: .seconds(configuration.identity.maxTokenAgeSeconds), http: http,
                    discovery: discovery, keys: keys)
            } catch {
                throw .invalidValue(key: "identityProviders.\(configured.name)", source: "", reason: "\(error)")
            }
            redirectURIs[configured.name] = client.redirectURIs
        }
        self.init(
            providers: providers, redirectURIs: redirectURIs, store: store,
            flowLifetimeSeconds: configuration.identity.flowLifetimeSeconds)
        maxPendingFlows = configuration.identity.maxPendingFlows
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
