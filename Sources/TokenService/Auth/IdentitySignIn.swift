import IdentityProviders
import JWT
import Logging
import Store

/// What `POST /auth/idtoken` and `POST /auth/nonce` work with: one verifier per configured provider (sharing one key
/// cache), the identities store, the nonce rules and the linking rules.
struct IdentitySignIn: Sendable {
    /// The verifiers by provider name (`identityProviders.<name>`).
    let verifiers: [String: IDTokenVerifier]
    let store: any IdentityStoring
    /// `identity.linkVerifiedEmail`.
    let linkVerifiedEmail: Bool
    /// `identity.trustedForLinking`.
    let trustedForLinking: Set<String>
    /// `identity.requireServerNonce`.
    let requireServerNonce: Bool
    /// `identity.maxPendingNonces`.
    let maxPendingNonces: Int
    /// The tenant of the accounts each provider creates (`identityProviders.<name>.tenant`), by provider name, for
    /// native and browser providers alike; a provider without one is absent.
    let tenants: [String: String]
    /// Sign in with Apple's REST API (the `authorizationCode` redemption); nil when no provider configures it.
    var apple: AppleTokens?

    /// The verifiers of `configuration`, their keys fetched by `fetcher` into one cache whose fetches are logged.
    /// - Throws: `ConfigurationError.invalidValue` naming the provider when its settings are refused (the loader
    ///   has checked them already, so only a configuration built by hand can fail here).
    init(
        configuration: TokenServiceConfiguration.Identity, store: any IdentityStoring, fetcher: any JWKSFetching,
        logger: Logger
    ) throws(ConfigurationError) {
        try self.init(
            configuration: configuration, store: store, keys: Self.keyCache(fetcher: fetcher, logger: logger))
    }

    /// The key cache of every provider, native and browser alike, whose fetches are logged.
    static func keyCache(fetcher: any JWKSFetching, logger: Logger) -> ProviderKeyCache {
        ProviderKeyCache(fetcher: fetcher, onEvent: { event in Self.log(event, logger: logger) })
    }

    /// The verifiers of `configuration` over the shared key cache `keys`, each provider at
    /// `identity.maxTokenAgeSeconds`.
    /// - Throws: `ConfigurationError.invalidValue` naming the provider when its provider is refused (only a
    ///   configuration built by hand, with a non-positive token age, can fail here).
    init(
        configuration: TokenServiceConfiguration.Identity, store: any IdentityStoring, keys: ProviderKeyCache
    ) throws(ConfigurationError) {
        var verifiers: [String: IDTokenVerifier] = [:]
        var tenants: [String: String] = [:]
        for configured in configuration.providers {
            tenants[configured.name] = configured.tenant
            guard let native = configured.native else { continue }
            do {
                let provider = try native.withMaxTokenAge(.seconds(configuration.maxTokenAgeSeconds))
                verifiers[configured.name] = IDTokenVerifier(provider: provider, keys: keys)
            } catch {
                throw .invalidValue(key: "identityProviders.\(configured.name)", source: "", reason: "\(error)")
            }
        }
        self.verifiers = verifiers
        self.store = store
        linkVerifiedEmail = configuration.linkVerifiedEmail
        trustedForLinking = Set(configuration.trustedForLinking)
        requireServerNonce = configuration.requireServerNonce
        maxPendingNonces = configuration.maxPendingNonces
        self.tenants = tenants
    }

    /// One log line per key fetch: `info` when keys were installed, `warning` when a fetch failed.
    static func log(_ event: ProviderKeyCache.Event, logger: Logger) {
        switch event {
        case .fetched(let url, let keyCount, let skipped, let lifetime):
            logger.info(
                "identity provider keys fetched",
                metadata: [
                    "url": "\(url)", "keys": "\(keyCount)", "skipped": "\(skipped.count)",
                    "lifetime_seconds": "\(lifetime)",
                ])
        case .fetchFailed(let url, let error, let holdingKeys):
            logger.warning(
                "identity provider keys not fetched",
                metadata: ["url": "\(url)", "error": "\(error)", "holding_keys": "\(holdingKeys)"])
        case .unusableKeySet(let url, let reason, let holdingKeys):
            logger.warning(
                "identity provider key set unusable",
                metadata: ["url": "\(url)", "reason": "\(reason)", "holding_keys": "\(holdingKeys)"])
        }
    }
}
