import Store

extension PostgresStore {
    /// Where the database is and how the store uses it. Every limit is finite by default.
    ///
    /// ```swift
    /// let store = try await PostgresStore(configuration: .init(url: "postgres://tokenvend@db:5432/tokenvend"))
    /// ```
    public struct Configuration: Sendable, Equatable {
        /// `postgres://user[:password]@host:port/database?sslmode=…&options=…` (libpq's URI syntax). Never logged:
        /// logs and errors show `PostgresURL.redacted`.
        public var url: String
        /// Most connections the pool opens (each opened on first need); besides them each store keeps one
        /// `LISTEN` connection and one for `ping()`. Default: 8.
        public var poolSize: Int
        /// Longest time to open a connection (libpq `connect_timeout` and a client-side deadline). Default: 5 s.
        public var connectTimeout: Duration
        /// Longest time one statement may run: the server's `statement_timeout`, and the client-side deadline after
        /// which the query is cancelled and its connection discarded (so a vanished server never hangs a caller).
        /// Default: 5 s.
        public var queryTimeout: Duration
        /// Longest time a rotation waits for its session row (`SET LOCAL lock_timeout`) before
        /// `.unavailable(.lockTimeout)`. Default: 2 s.
        public var lockTimeout: Duration
        /// Longest time a caller waits for a pooled connection before `.unavailable(.timedOut)`. Default: 2 s.
        public var acquireTimeout: Duration
        /// Whose clock decides rotations and stamps stored times. Default: `.database`.
        public var clock: Clock
        /// Longest time a session's liveness is answered from memory. A revocation on any instance
        /// (`LISTEN/NOTIFY`), any write through this store, or the listener connection being down ends kept
        /// answers at once; this bounds only what notifications cannot (a notification lost without the
        /// listener noticing). `.zero` reads the database every time. Default: 1 s.
        public var statusCacheLifetime: Duration
        /// Whether opening the store applies pending migrations (under `pg_advisory_lock`); when false, opening a
        /// database with pending migrations fails with `.misuse` naming `tokenvend db migrate`. Either way a
        /// current schema is opened without a lock and without `CREATE`. Default: true.
        public var migrate: Bool
        /// Whether a `url` that reaches a server beyond this host (not a socket, `localhost` or a loopback address)
        /// may leave the server's certificate unchecked (an `sslmode` other than `verify-full` or `verify-ca`, or
        /// none). The store does not read it: tokenvend's loader and `tokenvend db copy` refuse such a URL unless
        /// it is true, since anyone on the path could read the password and every token hash, or answer in the
        /// database's place. Default: false.
        public var allowUnverifiedTLS: Bool

        /// Creates a configuration; see the properties for the defaults.
        public init(
            url: String, poolSize: Int = 8, connectTimeout: Duration = .seconds(5),
            queryTimeout: Duration = .seconds(5),
            lockTimeout: Duration = .seconds(2), acquireTimeout: Duration = .seconds(2), clock: Clock = .database,
            statusCacheLifetime: Duration = .seconds(1), migrate: Bool = true, allowUnverifiedTLS: Bool = false
        ) {
            self.allowUnverifiedTLS = allowUnverifiedTLS
            self.url = url
            self.poolSize = poolSize
            self.connectTimeout = connectTimeout
            self.queryTimeout = queryTimeout
            self.lockTimeout = lockTimeout
            self.acquireTimeout = acquireTimeout
            self.clock = clock
            self.statusCacheLifetime = statusCacheLifetime
            self.migrate = migrate
        }

        /// Checks the values a caller can get wrong.
        /// - Throws: `.misuse` naming the setting (never its value, which may hold a password).
        func validate() throws(StoreError) {
            guard poolSize >= 1 else { throw .misuse("poolSize must be at least 1") }
            guard connectTimeout > .zero else { throw .misuse("connectTimeout must be positive") }
            guard queryTimeout > .zero else { throw .misuse("queryTimeout must be positive") }
            guard lockTimeout > .zero else { throw .misuse("lockTimeout must be positive") }
            guard acquireTimeout > .zero else { throw .misuse("acquireTimeout must be positive") }
            guard statusCacheLifetime >= .zero else { throw .misuse("statusCacheLifetime must not be negative") }
        }
    }

    /// Whose clock decides rotations (the grace window, reuse detection, expiry) and stamps stored times.
    public enum Clock: Sendable, Equatable {
        /// PostgreSQL's `clock_timestamp()`, read inside each transaction: every instance decides with the same
        /// clock, whichever instance a request reaches. The `now` arguments are ignored.
        case database
        /// The `now` arguments the caller passes (deterministic tests only).
        case caller
    }
}

extension PostgresStore.Configuration: CustomStringConvertible, CustomDebugStringConvertible {
    /// The URL without its password or query, a placeholder when it does not parse; nil when it is empty (no
    /// PostgreSQL database is configured).
    public var redactedURL: String? {
        guard !url.isEmpty else { return nil }
        return (try? PostgresURL(url).redacted) ?? "postgres://(invalid URL)"
    }

    /// The settings with the URL redacted (never its password).
    public var description: String {
        return """
            PostgresStore.Configuration(url: \(redactedURL ?? "none"), poolSize: \(poolSize), \
            connectTimeout: \(connectTimeout), queryTimeout: \(queryTimeout), lockTimeout: \(lockTimeout), \
            acquireTimeout: \(acquireTimeout), clock: \(clock), statusCacheLifetime: \(statusCacheLifetime), \
            migrate: \(migrate), allowUnverifiedTLS: \(allowUnverifiedTLS))
            """
    }

    public var debugDescription: String { description }
}
