public import FoundationEssentials
import HTTPServer
public import Logging
import PasswordHash
public import Prometheus
import SQLiteStore
public import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The whole service: the store, the token keys, the hashing pool, the Moss cache, the routes and the
/// HTTP server, built from one `TokenServiceConfiguration`.
///
/// ```swift
/// let server = try await TokenServer.open(configuration: loaded.configuration, logger: logger)  // any backend
/// let port = try server.start()
/// try await server.run()          // until SIGTERM/SIGINT, then drains and closes the store
/// ```
public final class TokenServer: Sendable {
    /// The configuration the server was built from.
    public let configuration: TokenServiceConfiguration
    /// The metric families behind `GET /metrics`.
    public let metrics: ServiceMetrics
    /// The store every handler works on: SQLite or PostgreSQL.
    let backend: any StoreBackend
    /// Deletes ended sessions in the background from `start()` until shutdown.
    let sessionPurger: SessionPurger
    /// Delivers the email outbox from `start()` until shutdown; nil when `email.transport` is `off`.
    let outboxSender: OutboxSender?
    let http: HTTPServer
    let logger: Logger
    /// Writes buffered log lines (the executable's `LogOutput.flush`); called after each batch of socket events
    /// and when the server stops.
    let flush: @Sendable () -> Void

    /// Opens the configured store (`StoreOpener`: SQLite at `database.path`, or PostgreSQL at `database.url`)
    /// and builds the service on it; nothing listens until `start()`. Parameters as for
    /// `init(configuration:backend:logger:mossUpstream:now:metricsRegistry:flush:)`.
    /// - Throws: `StoreError` when the store cannot be opened or migrated, else as `init`.
    public static func open(
        configuration: TokenServiceConfiguration, logger: Logger, mossUpstream: (any MossUpstream)? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        flush: @escaping @Sendable () -> Void = {}
    ) async throws -> TokenServer {
        let backend = try await StoreOpener.open(configuration, logger: logger)
        do {
            return try TokenServer(
                configuration: configuration, backend: backend, logger: logger, mossUpstream: mossUpstream, now: now,
                metricsRegistry: metricsRegistry, flush: flush)
        } catch {
            backend.close()
            throw error
        }
    }

    /// Builds the service on the SQLite store at `configuration.database.path` (opened, and migrated when new,
    /// here); nothing listens until `start()`. For a configuration that may name PostgreSQL, use `open`.
    /// - Throws: `StoreError` when the database cannot be opened or migrated, else as
    ///   `init(configuration:backend:logger:mossUpstream:now:metricsRegistry:flush:)`.
    public convenience init(
        configuration: TokenServiceConfiguration, logger: Logger, mossUpstream: (any MossUpstream)? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        flush: @escaping @Sendable () -> Void = {}
    ) throws {
        let backend = try SQLiteStore(configuration: configuration.database)
        do {
            try self.init(
                configuration: configuration, backend: backend, logger: logger, mossUpstream: mossUpstream, now: now,
                metricsRegistry: metricsRegistry, flush: flush)
        } catch {
            backend.close()
            throw error
        }
    }

    /// Builds the service on an open store, which it closes at shutdown; nothing listens until `start()`.
    ///
    /// - Parameters:
    ///   - configuration: A loaded configuration (`ConfigurationLoader.load`): keys and the refresh secret set.
    ///   - backend: The store (`StoreOpener.open`, or `SQLiteStore`/`PostgresStore` built by the caller).
    ///   - logger: Where the access lines and service events go.
    ///   - mossUpstream: Replaces the HTTP exchange with Moss (tests). Default: the configured `moss.authURL`.
    ///   - now: The wall clock for token times. Default: the system clock.
    ///   - metricsRegistry: The registry `/metrics` renders; the executable hands in the one it bootstrapped
    ///     swift-metrics with, so libraries' metrics appear there too. Default: a new registry of its own.
    ///   - flush: Writes the log lines buffered by `logger`'s output; the server calls it after every batch of
    ///     socket events and when it stops. Default: nothing (for unbuffered handlers).
    /// - Throws: `JWTError.weakKey` for a key the loader did not refuse, `ConfigurationError` for a missing key.
    ///   (The password hasher is built on first use.)
    public init(
        configuration: TokenServiceConfiguration, backend: any StoreBackend, logger: Logger,
        mossUpstream: (any MossUpstream)? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        flush: @escaping @Sendable () -> Void = {}
    ) throws {
        self.configuration = configuration
        self.logger = logger
        self.flush = flush
        let metrics = ServiceMetrics(registry: metricsRegistry)
        self.metrics = metrics
        self.backend = backend
        var purge = SessionPurger.Configuration()
        // A counter is needed until the window after it ends (the estimate weighs the previous window).
        purge.counterRetention = .seconds(2 * max(configuration.rateLimit.loginWindowSeconds, 60))
        sessionPurger = SessionPurger(
            sessions: backend.sessions, rateLimits: backend.rateLimits, identities: backend.identities,
            oauth: backend.oauth, email: backend.email, integrity: backend.integrity,
            dpopProofs: backend.dpopProofs, passkeys: backend.passkeys, configuration: purge, logger: logger, now: now)
        let components = try Components(
            configuration: configuration, backend: backend, metrics: metrics, logger: logger,
            mossUpstream: mossUpstream, now: now)
        outboxSender = components.sender
        var router = Router()
        components.register(on: &router, backend: backend)
        self.http = HTTPServer(
            configuration: configuration.server, router: router, logger: logger,
            observer: { completed in metrics.record(completed) },
            afterEvents: flush)
        metrics.gauge("tokenvend_password_hash_queue_depth", help: "Password hashes waiting for a thread.") {
            Double(components.hashingPool.load.queued)
        }
        metrics.gauge("tokenvend_password_hashes_in_flight", help: "Password hashes running now.") {
            Double(components.hashingPool.load.inFlight)
        }
    }

    /// Binds and starts serving; returns the bound port (useful with port 0).
    public func start() throws -> Int {
        let port = try http.start()
        announce(port)
        return port
    }

    /// This process's name among the instances sharing the store: `<host name>:<port>`. No two live processes
    /// have the same (they could not both listen on the port), and a process restarted in the same container or
    /// on the same host and port gets its predecessor's name (`OutboxSender.start(as:)`).
    static func instanceName(port: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "localhost"
        return "\(host):\(port)"
    }

    private func announce(_ port: Int) {
        sessionPurger.start()
        outboxSender?.start(as: Self.instanceName(port: port))
        logger.info(
            "tokenvend listening",
            metadata: [
                "server.host": "\(configuration.server.host)", "server.port": "\(port)",
                "database": "\(backend.displayName)",
            ])
    }

    /// Refuses new connections, lets in-flight requests finish within `server.shutdownGraceSeconds`, then closes
    /// the store.
    /// - Returns: true when every in-flight request finished within the grace period.
    @discardableResult
    public func shutdown() async -> Bool {
        let outcome = await http.shutdown(gracePeriod: configuration.server.shutdownGrace)
        await sessionPurger.stop()
        await outboxSender?.stop()
        backend.close()
        flush()
        return outcome == .drained
    }

    /// Starts (if `start()` was not called), serves until SIGTERM or SIGINT, drains (a second signal exits at
    /// once), then closes the database. The signal handlers are in place before the listener opens.
    /// - Returns: true when every in-flight request finished within `server.shutdownGraceSeconds`; false when
    ///   the grace period ran out and requests were cut off (`tokenvend serve` then exits 1).
    /// - Throws: `HTTPServerError` when the server cannot start.
    @discardableResult
    public func run() async throws -> Bool {
        defer { flush() }
        sessionPurger.start()  // idempotent: `start()` may have scheduled it already
        // The outbox sender starts in `announce`, once the port (part of its name) is known.
        let outcome = try await http.run { port in announce(port) }
        await sessionPurger.stop()
        await outboxSender?.stop()
        backend.close()
        return outcome == .drained
    }
}
