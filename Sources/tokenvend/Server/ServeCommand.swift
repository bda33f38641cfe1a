import ArgumentParser
import FoundationEssentials
import Logging
import StructuredLogging
import TokenService

/// `tokenvend serve`: runs the server until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the server (logs to stderr).",
        discussion: """
            Configuration: the JSON file (--config, default Config/tokenvend.json when present), then TOKENVEND_* \
            environment variables, then these flags. Without configured keys, development keys are generated \
            beside the database. SIGTERM or SIGINT refuses new connections and drains in-flight requests for \
            server.shutdownGraceSeconds; a second signal exits at once. Exit status: 0 after a complete drain, 1 \
            when the grace period ran out with requests still in flight (or on a second signal, or when the \
            server cannot start).
            """
    )

    @OptionGroup var options: ServerConfigurationOptions

    func run() async throws {
        let loaded = try options.load(prepareStorage: true)
        let logging = ServerLogging.bootstrap(loaded.configuration.log)
        let output = logging.output
        defer { output.flush() }  // every exit below, thrown or not, writes the lines still buffered
        let logger = logging.logger
        for note in loaded.notes { logger.warning("\(note.description)") }
        if !loaded.ignoredEnvironmentVariables.isEmpty {
            logger.debug(
                "ignoring Kubernetes service-link variables",
                metadata: ["env.names": "\(loaded.ignoredEnvironmentVariables.joined(separator: ","))"])
        }
        // `run()` installs the SIGTERM/SIGINT handlers before it opens the listener, so a signal that arrives
        // once connections are accepted always drains.
        let drained: Bool
        do {
            let server = try await TokenServer.open(
                configuration: loaded.configuration, logger: logger, metricsRegistry: ServerMetrics.bootstrap(),
                flush: { output.flush() })
            drained = try await server.run()
        } catch {
            logger.critical("tokenvend cannot start", metadata: ["error": "\(error)"])
            throw ExitCode.failure
        }
        guard drained else {
            logger.error("tokenvend stopped with requests still in flight after the shutdown grace period")
            throw ExitCode.failure
        }
        logger.info("tokenvend stopped")
    }
}

/// The configuration flags of `serve` and `users`.
struct ServerConfigurationOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The JSON configuration file. Default: Config/tokenvend.json when present.", valueName: "path"))
    var config: String?

    @Option(help: "Listen address (server.host).")
    var host: String?

    @Option(help: "Listen port (server.port).")
    var port: Int?

    @Option(help: ArgumentHelp("The SQLite database file (database.path).", valueName: "path"))
    var database: String?

    /// Layers file, environment and flags; prints the one-line reason and exits 1 when the configuration is bad.
    /// - Parameter prepareStorage: create the database folder and development keys (`serve`), or only resolve.
    func load(prepareStorage: Bool) throws -> ConfigurationLoadResult {
        let environment = ProcessInfo.processInfo.environment
        let overrides = ConfigurationOverrides(host: host, port: port, databasePath: database)
        do {
            if prepareStorage {
                return try ConfigurationLoader.load(configPath: config, environment: environment, overrides: overrides)
            }
            return try ConfigurationLoader.resolve(configPath: config, environment: environment, overrides: overrides)
        } catch {
            TerminalIO.writeStandardError("tokenvend: configuration: \(error.description)")
            throw ExitCode.failure
        }
    }
}
