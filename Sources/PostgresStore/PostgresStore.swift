import Dispatch
public import Store
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The shared backend: users, sessions and rate-limit counters in PostgreSQL, for several tokenvend instances
/// behind one load balancer.
///
/// It gives the guarantees of `SQLiteStore` across instances: a rotation is one transaction that locks the
/// session row and decides with the database's clock; a revocation reaches every instance's status cache through
/// `LISTEN/NOTIFY`; rate-limit counters are shared. Connections come from a small pool (`PostgresPool`) and every
/// query has a deadline, so a vanished server answers `.unavailable` instead of hanging; the pool reconnects by
/// itself.
///
/// ```swift
/// let store = try await PostgresStore(configuration: .init(url: "postgres://tokenvend@db:5432/tokenvend"))
/// let outcome = try await store.sessions.rotate(
///     sessionID: sid, presentedCounter: 3, now: Date(), grace: .seconds(10), refreshTTL: .seconds(86_400))
/// ```
public struct PostgresStore: StoreBackend {
    /// The configuration the store was opened with.
    public let configuration: Configuration
    /// The parsed URL (its `redacted` form is the store's `displayName`).
    public let url: PostgresURL
    /// The concrete stores.
    public let userStore: PostgresUserStore
    public let sessionStore: PostgresSessionStore
    public let identityStore: PostgresIdentityStore
    public let oauthStore: PostgresOAuthFlowStore
    public let emailStore: PostgresEmailStore
    public let integrityStore: PostgresIntegrityStore
    public let dpopProofStore: PostgresDPoPProofStore
    public let passkeyStore: PostgresPasskeyStore
    public let rateLimitCounters: PostgresRateLimitCounters
    let pool: PostgresPool
    let changes: PostgresChangeFeed

    /// Connects (one connection, to fail early when the database is unreachable), reads the schema version
    /// (without a lock and without creating anything, so a role without `CREATE` opens a current database),
    /// applies pending migrations when `configuration.migrate`, and starts the `LISTEN` connection.
    /// - Throws: `.misuse` for a bad URL or setting, or for pending migrations when `configuration.migrate` is
    ///   false (the message names `tokenvend db migrate`); `.unavailable(.unreachable)` when the database cannot
    ///   be reached, `.schemaTooNew` when a newer tokenvend migrated it.
    /// - Parameter connectionFailureLog: receives one line (the redacted URL and the failure's class, e.g.
    ///   "authentication failed") when a connection cannot be opened, at most once per class a minute; the
    ///   caller logs it as a warning. Default: nowhere.
    public init(
        configuration: Configuration, connectionFailureLog: (@Sendable (String) -> Void)? = nil
    ) async throws(StoreError) {
        try configuration.validate()
        let url = try PostgresURL(configuration.url)
        var settings = PostgresConnection.Settings(configuration: configuration)
        settings.failures = connectionFailureLog.map { PostgresConnectionFailureLog(url: url, sink: $0) }
        let pool = PostgresPool(
            url: url, settings: settings, size: configuration.poolSize, acquireTimeout: configuration.acquireTimeout)
        do throws(StoreError) {
            if configuration.migrate {
                _ = try await PostgresMigrator.migrate(pool: pool)
            } else {
                try Self.requireCurrent(try await PostgresMigrator.schemaVersion(pool: pool))
            }
        } catch {
            pool.close()
            throw error
        }
        let changes = PostgresChangeFeed(url: url, settings: settings)
        changes.start()
        self.configuration = configuration
        self.url = url
        self.pool = pool
        self.changes = changes
        let context = PostgresContext(
            pool: pool, clock: configuration.clock, lockTimeout: configuration.lockTimeout, changes: changes,
            statusCache: configuration.statusCacheLifetime > .zero
                ? SessionStatusCache(source: changes, lifetime: configuration.statusCacheLifetime) : nil)
        userStore = PostgresUserStore(context: context)
        sessionStore = PostgresSessionStore(context: context)
        identityStore = PostgresIdentityStore(context: context)
        oauthStore = PostgresOAuthFlowStore(context: context)
        emailStore = PostgresEmailStore(context: context)
        integrityStore = PostgresIntegrityStore(context: context)
        dpopProofStore = PostgresDPoPProofStore(context: context)
        passkeyStore = PostgresPasskeyStore(context: context)
        rateLimitCounters = PostgresRateLimitCounters(context: context)
    }

    /// Applies the pending migrations and returns what was applied (`tokenvend db migrate`); safe while other
    /// instances start or run (each step is applied once, under `pg_advisory_lock`).
    /// - Throws: as `init(configuration:)`.
    public static func migrate(configuration: Configuration) async throws(StoreError) -> MigrationReport {
        try configuration.validate()
        let url = try PostgresURL(configuration.url)
        let pool = PostgresPool(
            url: url, settings: PostgresConnection.Settings(configuration: configuration), size: 1)
        defer { pool.close() }
        return try await PostgresMigrator.migrate(pool: pool)
    }

    /// The schema version of the configured database, without changing it and without starting a store
    /// (`tokenvend db status`).
    /// - Throws: as `init(configuration:)`, except for pending migrations.
    public static func schemaVersion(configuration: Configuration) async throws(StoreError) -> SchemaVersion {
        try configuration.validate()
        let url = try PostgresURL(configuration.url)
        let pool = PostgresPool(
            url: url, settings: PostgresConnection.Settings(configuration: configuration), size: 1)
        defer { pool.close() }
        return try await PostgresMigrator.schemaVersion(pool: pool)
    }

    /// Tries one connection to the configured database and returns why it failed, or nil when it opened:
    /// what `tokenvend db status|migrate` print after `.unavailable(.unreachable)`.
    public static func connectionFailure(configuration: Configuration) async -> PostgresConnectionFailure? {
        guard let url = try? PostgresURL(configuration.url) else { return .other }
        let seen = Mutex<PostgresConnectionFailure?>(nil)
        let probe = PostgresConnection.Settings(configuration: configuration)
        return await withCheckedContinuation { (continuation: CheckedContinuation<PostgresConnectionFailure?, Never>) in
            DispatchQueue.global().async {
                var reporting = probe
                reporting.failures = PostgresConnectionFailureLog(
                    url: url,
                    classes: { failure in
                        seen.withLock { $0 = failure }
                    })
                _ = try? PostgresConnection(url: url, settings: reporting)
                continuation.resume(returning: seen.withLock { $0 })
            }
        }
    }

    /// Refuses a schema this code cannot serve without migrating it.
    static func requireCurrent(_ version: SchemaVersion) throws(StoreError) {
        guard version.found <= version.known else {
            throw .schemaTooNew(found: version.found, known: version.known)
        }
        guard version.found == version.known else {
            throw .misuse(
                "migrations pending (schema at version \(version.found), this tokenvend needs \(version.known)) "
                    + "and database.migrateOnStart is false: run tokenvend db migrate")
        }
    }

    public var users: any UserStoring { userStore }
    public var sessions: any SessionStoring { sessionStore }
    public var identities: any IdentityStoring { identityStore }
    public var oauth: any OAuthFlowStoring { oauthStore }
    public var email: any EmailStoring { emailStore }
    public var integrity: any IntegrityStoring { integrityStore }
    /// The shared DPoP proof ids: a proof accepted by one instance is a replay on every other.
    public var dpopProofs: (any DPoPProofStoring)? { dpopProofStore }
    /// The shared passkeys: a challenge is used once and a counter advances once across every instance.
    public var passkeys: any PasskeyStoring { passkeyStore }
    /// The shared counters: every instance on this database counts together.
    public var rateLimits: (any RateLimitCounters)? { rateLimitCounters }
    /// True: several instances share the database.
    public var isShared: Bool { true }
    /// The URL without its password (`postgres://tokenvend@db:5432/tokenvend`).
    public var displayName: String { url.redacted }

    public func ping() async throws(StoreError) { try await pool.ping() }

    public func schemaVersion() async throws(StoreError) -> SchemaVersion {
        try await PostgresMigrator.schemaVersion(pool: pool)
    }

    public func close() {
        changes.stop()
        sessionStore.context.statusCache?.close()
        pool.close()
    }
}

extension PostgresStore: CustomStringConvertible, CustomDebugStringConvertible {
    /// `PostgresStore(postgres://user@host:port/database)`: never the password.
    public var description: String { "PostgresStore(\(displayName))" }

    public var debugDescription: String { description }
}
