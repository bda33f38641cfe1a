/// The result of loading: the configuration, the file it came from and notes for the log.
public struct ConfigurationLoadResult: Sendable, Equatable {
    /// The validated configuration.
    public var configuration: TokenServiceConfiguration
    /// The configuration file that was read, if any.
    public var configFile: String?
    /// Things the operator should know, to log at warning level (e.g. development keys generated).
    public var notes: [ConfigurationNote]

    /// A loaded configuration.
    public init(configuration: TokenServiceConfiguration, configFile: String?, notes: [ConfigurationNote]) {
        self.configuration = configuration
        self.configFile = configFile
        self.notes = notes
    }
}
