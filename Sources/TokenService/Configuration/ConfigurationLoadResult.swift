/// The result of loading: the configuration, the file it came from and notes for the log.
public struct ConfigurationLoadResult: Sendable, Equatable {
    /// The validated configuration.
    public var configuration: TokenServiceConfiguration
    /// The configuration file that was read, if any.
    public var configFile: String?
    /// Things the operator should know, to log at warning level (e.g. development keys generated).
    public var notes: [ConfigurationNote]
    /// Kubernetes service-link variables (`TOKENVEND_SERVICE_HOST`, `TOKENVEND_PORT_8080_TCP`, …) that were
    /// skipped rather than refused, sorted; worth a debug line at most.
    public var ignoredEnvironmentVariables: [String]

    /// A loaded configuration.
    public init(
        configuration: TokenServiceConfiguration, configFile: String?, notes: [ConfigurationNote],
        ignoredEnvironmentVariables: [String] = []
    ) {
        self.configuration = configuration
        self.configFile = configFile
        self.notes = notes
        self.ignoredEnvironmentVariables = ignoredEnvironmentVariables
    }
}
