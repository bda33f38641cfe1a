public import PostgresStore

extension TokenServiceConfiguration {
    /// The PostgreSQL database several instances share (`database.url` or `database.urlFile`, and the pool
    /// settings). Without a URL the service uses SQLite at `database.path`; the two exclude each other.
    ///
    /// `description` shows the URL redacted (`PostgresURL.redacted`): never its password.
    public struct Postgres: Sendable, Equatable, CustomStringConvertible {
        /// `postgres://user[:password]@host:port/database?sslmode=…` (`database.url`, or read from the file
        /// `database.urlFile`). Default: nil (SQLite).
        public var url: Secret? = nil
        /// Most connections per instance (`database.poolSize`, 1–64). Default: 8.
        public var poolSize: Int = 8
        /// Longest time to open a connection (`database.connectTimeoutSeconds`, 1–60). Default: 5 s.
        public var connectTimeoutSeconds: Int = 5
        /// Longest time one statement may run before it is cancelled and answered 503
        /// (`database.queryTimeoutMilliseconds`, 100–60 000). Default: 5000 ms.
        public var queryTimeoutMilliseconds: Int = 5_000
        /// Longest time a refresh waits for its session row, locked by a racing refresh on another instance,
        /// before 503 with `Retry-After: 1` (`database.lockTimeoutMilliseconds`, 10–60 000). Default: 2000 ms.
        public var lockTimeoutMilliseconds: Int = 2_000
        /// Longest time a request waits for a free pooled connection before 503 with `Retry-After: 1`
        /// (`database.acquireTimeoutMilliseconds`, 10–60 000). Default: 2000 ms.
        public var acquireTimeoutMilliseconds: Int = 2_000

        /// Whether an instance applies pending schema migrations when it starts (`database.migrateOnStart`);
        /// when false it refuses to start while migrations are pending, and `tokenvend db migrate` (run by a
        /// role that may create tables) applies them. Default: true.
        public var migrateOnStart: Bool = true

        /// Whether a `url` that reaches a server beyond this host (not a socket, `localhost` or a loopback
        /// address) may leave the server's certificate unchecked (an `sslmode` other than `verify-full` or
        /// `verify-ca`, or none) (`database.allowUnverifiedTLS`). Default: false: such a URL refuses to start,
        /// since anyone on the path could read the password and every token hash, or answer in the database's
        /// place. Set it only on a network nobody else can reach (a private container network).
        public var allowUnverifiedTLS: Bool = false

        /// The defaults.
        public init() {}

        /// The URL without its password or query, or a placeholder when it does not parse.
        public var redactedURL: String? {
            guard let url else { return nil }
            return (try? PostgresURL(url.value).redacted) ?? "postgres://(invalid URL)"
        }

        /// The settings without the password.
        public var description: String {
            "Postgres(url: \(redactedURL ?? "none"), poolSize: \(poolSize), connectTimeoutSeconds: "
                + "\(connectTimeoutSeconds), queryTimeoutMilliseconds: \(queryTimeoutMilliseconds), "
                + "lockTimeoutMilliseconds: \(lockTimeoutMilliseconds), acquireTimeoutMilliseconds: "
                + "\(acquireTimeoutMilliseconds), migrateOnStart: \(migrateOnStart), allowUnverifiedTLS: "
                + "\(allowUnverifiedTLS))"
        }

        /// The store's configuration, with the status-cache lifetime shared with SQLite
        /// (`database.statusCacheLifetimeMilliseconds`); nil without a URL.
        public func store(statusCacheLifetime: Duration) -> PostgresStore.Configuration? {
            guard let url else { return nil }
            return PostgresStore.Configuration(
                url: url.value, poolSize: poolSize, connectTimeout: .seconds(connectTimeoutSeconds),
                queryTimeout: .milliseconds(queryTimeoutMilliseconds),
                lockTimeout: .milliseconds(lockTimeoutMilliseconds),
                acquireTimeout: .milliseconds(acquireTimeoutMilliseconds), statusCacheLifetime: statusCacheLifetime,
                migrate: migrateOnStart)
        }
    }
}
