public import JWT

/// One `identityProviders.<name>` entry, parsed and checked (``IdentityProviderConfiguration/parse(section:readFile:)``):
/// the native provider whose ID tokens `POST /auth/idtoken` accepts, the browser flow's client, or both.
///
/// ```swift
/// let providers = try IdentityProviderConfiguration.parse(section: section, readFile: readSecretFile)
/// for provider in providers { verifiers[provider.name] = provider.native.map { IDTokenVerifier(provider: $0, keys: cache) } }
/// ```
public struct ConfiguredProvider: Sendable, Equatable {
    /// The name clients send as `provider` (`[a-z0-9][a-z0-9_-]{0,31}`).
    public let name: String
    /// The preset the entry started from, if any.
    public let preset: IdentityProviderPreset?
    /// The native flow's provider, at ``IdentityProvider/defaultMaxTokenAge`` (the service applies
    /// `identity.maxTokenAgeSeconds` with ``IdentityProvider/withMaxTokenAge(_:)``); nil when the entry has no
    /// issuers and key URL (a browser-only provider such as GitHub).
    public let native: IdentityProvider?
    /// The browser flow's client (`clientId`, credential, endpoints, scopes, redirect URIs); nil when the provider
    /// only signs in native ID tokens.
    public let browser: BrowserClientConfiguration?
    /// The accepted `aud` values, of native and browser ID tokens alike.
    public let audiences: [String]
    /// The accepted `alg` values.
    public let algorithms: Set<JWTAlgorithm>
    /// The tenant id (1 to 128 bytes) of the accounts a sign-in through this provider creates; nil for none.
    public let tenant: String?

    /// Sign in with Apple's REST API (redeeming authorization codes, revoking refresh tokens); nil when the entry
    /// does not configure it (only the `apple` preset can).
    public let appleREST: AppleRESTConfiguration?

    /// A provider with every member given.
    public init(
        name: String, preset: IdentityProviderPreset? = nil, native: IdentityProvider?,
        browser: BrowserClientConfiguration?, audiences: [String], algorithms: Set<JWTAlgorithm>,
        tenant: String? = nil, appleREST: AppleRESTConfiguration? = nil
    ) {
        self.appleREST = appleREST
        self.name = name
        self.preset = preset
        self.native = native
        self.browser = browser
        self.audiences = audiences
        self.algorithms = algorithms
        self.tenant = tenant
    }

    /// Every issuer an ID token of this provider may carry: the native ones and a discovery document's.
    public var issuers: Set<String> {
        var all = Set(native?.issuers ?? [])
        if case .discovery(_, let issuer) = browser?.endpoints { all.insert(issuer) }
        return all
    }
}
