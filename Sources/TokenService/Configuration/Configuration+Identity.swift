public import IdentityProviders

extension TokenServiceConfiguration {
    /// Sign-in with an identity provider's ID token (`identity.*` and `identityProviders.<name>`), for
    /// `POST /auth/idtoken`. No provider is configured by default: the route then answers 400 for every provider.
    public struct Identity: Sendable, Equatable {
        /// The providers by name (`identityProviders.<name>`), sorted by name, as IdentityProviders parsed them
        /// (`IdentityProviderConfiguration`). Default: none.
        public var providers: [ConfiguredProvider] = []
        /// The oldest `iat` accepted, in seconds before now; 30…86400. Default: 600 (10 minutes, the lifetime of
        /// an Apple ID token: an app exchanges its token at once, and a replayed old one is refused).
        public var maxTokenAgeSeconds: Int = 600
        /// When true, an unknown identity whose verified email belongs to an existing user is linked to that
        /// user; when false (the default) the sign-in answers 409 `identity_conflict`, because whoever controls
        /// the provider account would otherwise take over an account made with a password. Default: false.
        public var linkVerifiedEmail: Bool = false
        /// The providers whose verified email may link an identity to an existing account, and whose vouching for
        /// an account's email (when they created it) makes that email trusted for a later link. A link needs the
        /// presenting provider in this list and the account's email verified by the operator, an email code or a
        /// provider in this list, and never joins a second identity of one provider to an account. Default:
        /// `["apple", "google"]`.
        public var trustedForLinking: [String] = ["apple", "google"]
        /// When true, `POST /auth/idtoken` accepts a token only with a nonce that `POST /auth/nonce` issued and
        /// that was not used yet (consumed by the sign-in); a token without a nonce is refused. When false, the app
        /// chooses its nonce and may send none (the behaviour before issue 30). Default: true.
        public var requireServerNonce: Bool = true
        /// How many unexpired server-issued nonces may be pending in all (across every instance); past it
        /// `POST /auth/nonce` answers 503 with `Retry-After`. 1…10000000. Default: 100000.
        public var maxPendingNonces: Int = 100_000
        /// How long a browser sign-in (`GET /auth/oauth/{provider}`) may take from the redirect to the provider to
        /// its callback, in seconds; 5…900. A flow is used once. Default: 300 (5 minutes).
        public var flowLifetimeSeconds: Int = 300
        /// Browser sign-ins under way (started, not yet called back or expired) in all, across every instance;
        /// 1…1000000. A start beyond it answers 503 with `Retry-After`. Default: 10000.
        public var maxPendingFlows: Int = Identity.defaultMaxPendingFlows
        /// Browser sign-ins one client address (an IPv6 address by its /64) may start within
        /// ``flowLifetimeSeconds``, which bounds its flows under way; 1…100000. A start beyond it answers 429 with
        /// `Retry-After`. Default: 100 (many users may share one address behind carrier NAT).
        public var maxPendingFlowsPerAddress: Int = 100
        /// The file of the AES-256-GCM key that seals identity providers' refresh tokens at rest (Sign in with
        /// Apple's, `identities.refresh_token`): one line of base64 decoding to exactly 32 bytes (`openssl rand
        /// -base64 32`), mode 0600 (no access for group or others). Required when a provider configures Apple's
        /// REST API; optional otherwise. No development key is generated. Default: none.
        public var tokenEncryptionKeyFile: String?
        /// The key read from ``tokenEncryptionKeyFile`` by the loader's checks; nil without the file.
        public var tokenEncryptionKey: TokenEncryptionKey?

        /// The default of ``maxPendingFlows``.
        static let defaultMaxPendingFlows = 10_000

        /// The defaults.
        public init() {}

        /// The provider named `name`, if configured.
        public func provider(named name: String) -> ConfiguredProvider? {
            providers.first { $0.name == name }
        }

        /// True when some provider has browser settings: `server.publicURL` is then required.
        public var hasBrowserProviders: Bool { providers.contains { $0.browser != nil } }

        /// True when some provider configures Sign in with Apple's REST API (``ConfiguredProvider/appleREST``).
        public var hasAppleREST: Bool { providers.contains { $0.appleREST != nil } }
    }
}
