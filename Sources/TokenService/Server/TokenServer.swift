public import Foundation
import HTTPServer
public import Logging
import PasswordHash
public import Prometheus
import Store

/// The whole service: the database, the token keys, the hashing pool, the Moss cache, the routes and the
/// HTTP server, built from one `TokenServiceConfiguration`.
///
/// ```swift
/// let server = try TokenServer(configuration: loaded.configuration, logger: logger)
/// let port = try server.start()
/// try await server.run()          // until SIGTERM/SIGINT, then drains and closes the database
/// ```
public final class TokenServer: Sendable {
    /// The configuration the server was built from.
    public let configuration: TokenServiceConfiguration
    /// The metric families behind `GET /metrics`.
    public let metrics: ServiceMetrics
    let database: Store.Database
    /// Deletes ended sessions in the background from `start()` until shutdown.
    let sessionPurger: SessionPurger
    let http: HTTPServer
    let logger: Logger
    /// Writes buffered log lines (the executable's `LogOutput.flush`); called after each batch of socket events
    /// and when the server stops.
    let flush: @Sendable () -> Void

    /// Builds the service; nothing listens until `start()`.
    ///
    /// - Parameters:
    ///   - configuration: A loaded configuration (`ConfigurationLoader.load`): keys and the refresh secret set.
    ///   - logger: Where the access lines and service events go.
    ///   - mossUpstream: Replaces the HTTP exchange with Moss (tests). Default: the configured `moss.authURL`.
    ///   - now: The wall clock for token times. Default: the system clock.
    ///   - metricsRegistry: The registry `/metrics` renders; the executable hands in the one it bootstrapped
    ///     swift-metrics with, so libraries' metrics appear there too. Default: a new registry of its own.
    ///   - flush: Writes the log lines buffered by `logger`'s output; the server calls it after every batch of
    ///     socket events and when it stops. Default: nothing (for unbuffered handlers).
    /// - Throws: `StoreError` when the database cannot be opened or migrated, `JWTError.weakKey` for a key the
    ///   loader did not refuse, or `ServiceError` for a missing key. (The password hasher is built on first use.)
    public init(
        configuration: TokenServiceConfiguration, logger: Logger, mossUpstream: (any MossUpstream)? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        flush: @escaping @Sendable () -> Void = {}
    ) throws {
        self.configuration = configuration
        self.logger = logger
        self.flush = flush
        let metrics = ServiceMetrics(registry: metricsRegistry)
        self.metrics = metrics
        let database = try Store.Database(configuration: configuration.database)
        self.database = database
        sessionPurger = SessionPurger(sessions: SessionStore(database: database), logger: logger, now: now)
        let components = try Components(
            configuration: configuration, database: database, metrics: metrics, logger: logger,
            mossUpstream: mossUpstream, now: now)
        var router = Router()
        components.register(on: &router, database: database)
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

    private func announce(_ port: Int) {
        sessionPurger.start()
        logger.info(
            "tokenvend listening",
            metadata: ["server.host": "\(configuration.server.host)", "server.port": "\(port)"])
    }

    /// Refuses new connections, lets in-flight requests finish within `server.shutdownGraceSeconds`, then closes
    /// the database.
    /// - Returns: true when every in-flight request finished within the grace period.
    @discardableResult
    public func shutdown() async -> Bool {
        let outcome = await http.shutdown(gracePeriod: configuration.server.shutdownGrace)
        await sessionPurger.stop()
        database.close()
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
        let outcome = try await http.run { port in announce(port) }
        await sessionPurger.stop()
        database.close()
        return outcome == .drained
    }
}
