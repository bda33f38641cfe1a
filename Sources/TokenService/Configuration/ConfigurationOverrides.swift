import StrictJSON

/// Command-line flags of `tokenvend serve`; they override the file and the environment.
public struct ConfigurationOverrides: Sendable, Equatable {
    /// `--host`: `server.host`.
    public var host: String?
    /// `--port`: `server.port`.
    public var port: Int?
    /// `--database`: `database.path`.
    public var databasePath: String?

    /// Flags as given; `nil` leaves the key to the other layers.
    public init(host: String? = nil, port: Int? = nil, databasePath: String? = nil) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
    }

    var entries: [ConfigurationLoader.Entry] {
        var entries: [ConfigurationLoader.Entry] = []
        if let host { entries.append(.init(key: "server.host", value: .string(host), source: "--host")) }
        if let port { entries.append(.init(key: "server.port", value: .integer(Int64(port)), source: "--port")) }
        if let databasePath {
            entries.append(.init(key: "database.path", value: .string(databasePath), source: "--database"))
        }
        return entries
    }
}
