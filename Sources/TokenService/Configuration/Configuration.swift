public import AppIntegrity
public import HTTPServer
public import PostgresStore
public import SQLiteStore
public import WebAuthn

/// Everything `tokenvend serve` can be configured with, one nested struct per section of the configuration file.
///
/// Build one with ``ConfigurationLoader/load(configPath:environment:overrides:defaultConfigPath:)``, which layers the
/// built-in defaults, the JSON file, `TOKENVEND_*` environment variables and command-line flags (later wins),
/// validates every value and prepares the database folder and development keys. `init()` gives the built-in
/// defaults, which are also what `Config/tokenvend.json` spells out.
///
/// The key path of each property is its name in the file: `server.port`, `refreshToken.reuseGraceSeconds`.
/// Secrets are ``Secret`` values whose descriptions are redacted, so the whole value may be logged.
public struct TokenServiceConfiguration: Sendable, Equatable {
    /// Listener and connection limits (`server.*`): the HTTP server's own configuration, read by its
    /// `init(reader:)`; `server.shutdownGraceSeconds` is `shutdownGrace`, and so on.
    public var server: HTTPServer.Configuration = TokenServiceConfiguration.serverDefaults
    /// Where the SQLite database lives (`database.*`): the store's own configuration, read by its `init(reader:)`.
    public var database: Database.Configuration = TokenServiceConfiguration.databaseDefaults
    /// The PostgreSQL database several instances share (`database.url`, `database.urlFile`, the pool keys,
    /// `database.allowUnverifiedTLS`): the store's own configuration, read by its `init(reader:)`. Its `url` is
    /// empty (the default) for SQLite; `database.url` and `database.path` exclude each other.
    public var postgres: PostgresStore.Configuration = TokenServiceConfiguration.postgresDefaults
    /// Access-token issuing and verification (`accessToken.*`).
    public var accessToken: AccessToken = AccessToken()
    /// The published key set (`jwks.*`).
    public var jwks: JWKS = JWKS()
    /// Refresh-token lifetime, convergence window and MAC secret (`refreshToken.*`).
    public var refreshToken: RefreshToken = RefreshToken()
    /// Session limits (`session.*`).
    public var session: Session = Session()
    /// Self-service registration (`registration.*`).
    public var registration: Registration = Registration()
    /// Account deletion (`account.*`).
    public var account: Account = Account()
    /// Password policy and Argon2id cost (`password.*`).
    public var password: Password = Password()
    /// Login and request rate limits (`rateLimit.*`).
    public var rateLimit: RateLimit = RateLimit()
    /// Moss upstream credentials for `GET /moss-token` (`moss.*`); `nil` (the default) when neither
    /// `moss.projectId` nor `moss.projectKey` is set, and the route answers 503.
    public var moss: MossConfiguration? = nil
    /// Bloomreach Stream keys for `POST /stream-token` (`stream.*`).
    public var stream: Stream = Stream()
    /// Sign-in with Apple, Google and other identity providers' ID tokens (`identity.*`, `identityProviders`).
    public var identity: Identity = Identity()
    /// Third-party tokens vended at `POST /vend/<name>` (`vendors.<name>`), sorted by name. Default: none.
    public var vendors: [VendorSettings] = []
    /// Email codes over SMTP and their outbox (`email.*`): transport, sender, templates, code policy.
    public var email: Email = Email()
    /// The address clients reach tokenvend at (`server.publicURL`, without a trailing `/`), from which the browser
    /// flow's callback URL `<publicURL>/auth/oauth/<provider>/callback` is built; required when a provider has
    /// browser settings. Default: nil.
    public var publicURL: String? = nil
    /// Log level and format (`log.*`).
    public var log: Log = Log()
    /// App integrity (`integrity.*`): App Attest, Play Integrity, App Check, the per-route policy and debug tokens,
    /// read by the AppIntegrity module from its own section. Default: every route `off`, no platform.
    public var integrity = IntegrityConfiguration()
    /// DPoP-bound sessions (`dpop.*`). Default: optional binding, ES256 and EdDSA, 60 s proofs, no nonces.
    public var dpop = DPoP()
    /// Passkeys (`passkeys.*`): the WebAuthn relying party, its origins and the apps of the association files, read
    /// by the WebAuthn module from its own section. Default: off (no `rpId`).
    public var passkeys = PasskeyConfiguration()

    /// The built-in defaults: every section at its documented default.
    public init() {}
}

extension TokenServiceConfiguration {
    /// The HTTP server's defaults as tokenvend serves: the library's, except a drain time of 20 s
    /// (`server.shutdownGraceSeconds`) instead of 10 s.
    public static let serverDefaults = HTTPServer.Configuration(shutdownGrace: .seconds(20))

    /// The store's defaults as tokenvend serves: the database at `data/tokenvend.sqlite`, relative to the working
    /// directory (`database.path`; its folder is created 0700 when missing, and development keys are stored in it).
    public static let databaseDefaults = Database.Configuration(path: "data/tokenvend.sqlite")

    /// PostgreSQL's defaults as tokenvend serves: the store's, without a URL (SQLite is used).
    public static let postgresDefaults = PostgresStore.Configuration(url: "")
}
