extension TokenServiceConfiguration {
    /// Sign-in with an identity provider's ID token (`identity.*` and `identityProviders.<name>`), for
    /// `POST /auth/idtoken`. No provider is configured by default: the route then answers 400 for every provider.
    public struct Identity: Sendable, Equatable {
        /// The providers by name (`identityProviders.<name>`), sorted by name. Default: none.
        public var providers: [IdentityProviderSettings] = []
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

        /// The default of ``maxPendingFlows``.
        static let defaultMaxPendingFlows = 10_000

        /// The defaults.
        public init() {}

        /// The provider named `name`, if configured.
        public func provider(named name: String) -> IdentityProviderSettings? {
            providers.first { $0.name == name }
        }

        /// True when some provider has browser settings: `server.publicURL` is then required.
        public var hasBrowserProviders: Bool { providers.contains { $0.browser != nil } }
    }

    /// One `identityProviders.<name>` entry, with its preset already applied: every member is filled.
    public struct IdentityProviderSettings: Sendable, Equatable {
        /// How the token's `nonce` claim relates to the `nonce` the app sends.
        public enum NonceMode: String, Sendable, Equatable, CaseIterable {
            /// The claim is the lowercase hex SHA-256 of the raw nonce the app sends (Apple, Supabase).
            case sha256
            /// The claim is the nonce the app sends (Google).
            case raw
            /// Either of the above.
            case rawOrSHA256 = "raw-or-sha256"
        }

        /// The presets `preset` accepts: they fill `issuers`, `jwksURL`, `nonce` and `algorithms`, and the browser
        /// endpoints and scopes (``BrowserSettings/Defaults``).
        public enum Preset: String, Sendable, Equatable, CaseIterable {
            /// Sign in with Apple: issuer `https://appleid.apple.com`, keys `https://appleid.apple.com/auth/keys`,
            /// nonce `sha256`, RS256.
            case apple
            /// Google Sign-In: issuers `https://accounts.google.com` and `accounts.google.com`, keys
            /// `https://www.googleapis.com/oauth2/v3/certs`, nonce `raw`, RS256; in the browser, discovery at
            /// `https://accounts.google.com/.well-known/openid-configuration`.
            case google
            /// GitHub (browser only: no ID tokens): its authorize and token endpoints, the user from
            /// `https://api.github.com/user`, scopes `read:user user:email`.
            case github
            /// GitLab.com: issuer `https://gitlab.com`, keys `https://gitlab.com/oauth/discovery/keys`, nonce `raw`,
            /// RS256; in the browser, discovery at `https://gitlab.com/.well-known/openid-configuration`.
            case gitlab
        }

        /// The algorithms an ID token may be signed with; never `none` or HMAC.
        public static let supportedAlgorithms = ["RS256", "ES256"]

        /// The name clients send as `provider` (`[a-z0-9][a-z0-9_-]*`, at most 32 characters).
        public var name: String
        /// The preset the entry started from, if any.
        public var preset: Preset?
        /// Accepted `iss` values, compared exactly; empty for a browser-only provider.
        public var issuers: [String]
        /// Where the provider's JWKS is fetched: https, or http to a loopback host; empty for a browser-only
        /// provider.
        public var jwksURL: String
        /// Accepted `aud` values: the app's bundle id, Services ID or OAuth client ids. Never empty.
        public var audiences: [String]
        /// How the `nonce` claim is checked.
        public var nonce: NonceMode
        /// Accepted `alg` values, a non-empty subset of ``supportedAlgorithms``.
        public var algorithms: [String]
        /// The browser flow's settings (`clientId`, `redirectURIs`, endpoints…); nil when the provider only signs
        /// in native ID tokens. Default: nil.
        public var browser: BrowserSettings?
        /// The tenant id (1 to 128 bytes) of the accounts a sign-in through this provider creates; a sign-in to an
        /// existing account never changes its tenant. Default: nil (accounts are created without a tenant).
        public var tenant: String?

        /// True when `POST /auth/idtoken` accepts this provider's ID tokens: it has issuers and a key URL.
        public var isNative: Bool { !issuers.isEmpty && !jwksURL.isEmpty }

        /// An entry with every member given.
        public init(
            name: String, preset: Preset? = nil, issuers: [String], jwksURL: String, audiences: [String],
            nonce: NonceMode, algorithms: [String], browser: BrowserSettings? = nil, tenant: String? = nil
        ) {
            self.browser = browser
            self.tenant = tenant
            self.name = name
            self.preset = preset
            self.issuers = issuers
            self.jwksURL = jwksURL
            self.audiences = audiences
            self.nonce = nonce
            self.algorithms = algorithms
        }

        /// The values a preset fills: issuers, key URL, nonce mode and algorithms.
        public static func defaults(
            of preset: Preset
        ) -> (issuers: [String], jwksURL: String, nonce: NonceMode, algorithms: [String]) {
            switch preset {
            case .apple:
                (["https://appleid.apple.com"], "https://appleid.apple.com/auth/keys", .sha256, ["RS256"])
            case .google:
                (
                    ["https://accounts.google.com", "accounts.google.com"],
                    "https://www.googleapis.com/oauth2/v3/certs", .raw, ["RS256"]
                )
            case .github: ([], "", .raw, ["RS256"])
            case .gitlab: (["https://gitlab.com"], "https://gitlab.com/oauth/discovery/keys", .raw, ["RS256"])
            }
        }
    }
}
