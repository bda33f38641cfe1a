public import HTTPServer

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
    /// Listener and connection limits (`server.*`).
    public var server: Server
    /// Where the SQLite database lives (`database.*`).
    public var database: Database
    /// Access-token issuing and verification (`accessToken.*`).
    public var accessToken: AccessToken
    /// Refresh-token lifetime, convergence window and MAC secret (`refreshToken.*`).
    public var refreshToken: RefreshToken
    /// Session limits (`session.*`).
    public var session: Session
    /// Self-service registration (`registration.*`).
    public var registration: Registration
    /// Password policy and Argon2id cost (`password.*`).
    public var password: Password
    /// Login and request rate limits (`rateLimit.*`).
    public var rateLimit: RateLimit
    /// Moss upstream credentials for `GET /moss-token` (`moss.*`).
    public var moss: Moss
    /// Bloomreach Stream keys for `POST /stream-token` (`stream.*`).
    public var stream: Stream
    /// Log level and format (`log.*`).
    public var log: Log

    /// The built-in defaults: every section at its documented default.
    public init(
        server: Server = Server(),
        database: Database = Database(),
        accessToken: AccessToken = AccessToken(),
        refreshToken: RefreshToken = RefreshToken(),
        session: Session = Session(),
        registration: Registration = Registration(),
        password: Password = Password(),
        rateLimit: RateLimit = RateLimit(),
        moss: Moss = Moss(),
        stream: Stream = Stream(),
        log: Log = Log()
    ) {
        self.server = server
        self.database = database
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.session = session
        self.registration = registration
        self.password = password
        self.rateLimit = rateLimit
        self.moss = moss
        self.stream = stream
        self.log = log
    }
}

extension TokenServiceConfiguration {
    /// Listener address and connection limits (`server.*`). Every limit is finite.
    public struct Server: Sendable, Equatable {
        /// Address to listen on. Default: `127.0.0.1` (`0.0.0.0` in the container).
        public var host: String = "127.0.0.1"
        /// TCP port, 0 for any free port. Default: 8080.
        public var port: Int = 8080
        /// Open connections at most; at the limit a new connection displaces the one that has waited longest on
        /// its client (head, body or keep-alive idle). Default: 10000.
        public var maxConnections: Int = 10000
        /// Request line plus header section, in bytes; over it: 431. Default: 16384.
        public var maxHeaderBytes: Int = 16384
        /// Request body, in bytes; over it: 413 and close. Default: 65536.
        public var maxBodyBytes: Int = 65536
        /// Request target, in bytes; over it: 414. Default: 8192.
        public var maxTargetBytes: Int = 8192
        /// Time to receive a complete request head; then 408 and close. Default: 10 s.
        public var headerTimeoutSeconds: Int = 10
        /// Time to receive a whole request, head and body, however steadily it trickles; then 408 and close.
        /// Default: 30 s.
        public var requestTimeoutSeconds: Int = 30
        /// Longest pause between two reads of a request body; then 408 and close. Default: 10 s.
        public var bodyIdleTimeoutSeconds: Int = 10
        /// Longest a response write may make no progress before the connection is closed. Default: 10 s.
        public var writeTimeoutSeconds: Int = 10
        /// Keep-alive connections idle longer than this are closed. Default: 60 s.
        public var idleTimeoutSeconds: Int = 60
        /// Drain time for in-flight requests after SIGTERM/SIGINT. Default: 20 s.
        public var shutdownGraceSeconds: Int = 20
        /// Proxies (addresses or CIDR ranges, IPv4 and IPv6) whose `X-Forwarded-For` / `Forwarded` fields name
        /// the client; from any other peer both fields are ignored. Default: none.
        public var trustedProxies: [CIDR] = []

        /// The defaults.
        public init() {}
    }

    /// Where the SQLite database lives (`database.*`).
    public struct Database: Sendable, Equatable {
        /// Path of the SQLite file, relative to the working directory unless absolute; its folder is created
        /// (mode 0700) when missing. Development keys are stored in the same folder. Default: `data/tokenvend.sqlite`.
        public var path: String = "data/tokenvend.sqlite"

        /// The defaults.
        public init() {}
    }
}
