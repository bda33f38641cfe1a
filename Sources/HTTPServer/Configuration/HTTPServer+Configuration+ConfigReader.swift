package import Configuration

extension HTTPServer.Configuration {
    /// A configuration read from `reader`, each key left out keeping its value in `defaults`.
    ///
    /// Keys, relative to the reader (tokenvend scopes it to `server`): `host` (string), `port`, `maxConnections`,
    /// `maxHeaderBytes`, `maxBodyBytes`, `maxTargetBytes` (ints), `headerTimeoutSeconds`,
    /// `requestTimeoutSeconds`, `bodyIdleTimeoutSeconds`, `writeTimeoutSeconds`, `idleTimeoutSeconds`,
    /// `shutdownGraceSeconds` (whole seconds) and `trustedProxies` (addresses or CIDR ranges). Values are not
    /// range-checked here: the caller's providers hold values already checked against its key table.
    /// `maxOutputBufferBytes` and `eventLoopCount` are not read.
    ///
    /// ```swift
    /// let http = HTTPServer.Configuration(reader: reader.scoped(to: "server"))
    /// ```
    /// Package access on purpose: the optional readers used here fall back to the default on a value of the
    /// wrong type, which is safe only behind tokenvend's loader (`ConfigurationLoader`), whose providers hold
    /// values already checked against the key table (`ConfigurationReaderTests.everyKeyReadWithItsType`).
    package init(reader: ConfigReader, defaults: Self = Self()) {
        self = defaults
        host = reader.string(forKey: "host") ?? host
        port = reader.int(forKey: "port") ?? port
        maxConnections = reader.int(forKey: "maxConnections") ?? maxConnections
        maxHeaderBytes = reader.int(forKey: "maxHeaderBytes") ?? maxHeaderBytes
        maxBodyBytes = reader.int(forKey: "maxBodyBytes") ?? maxBodyBytes
        maxTargetBytes = reader.int(forKey: "maxTargetBytes") ?? maxTargetBytes
        headerTimeout = reader.int(forKey: "headerTimeoutSeconds").map(Duration.seconds) ?? headerTimeout
        requestTimeout = reader.int(forKey: "requestTimeoutSeconds").map(Duration.seconds) ?? requestTimeout
        bodyIdleTimeout = reader.int(forKey: "bodyIdleTimeoutSeconds").map(Duration.seconds) ?? bodyIdleTimeout
        writeTimeout = reader.int(forKey: "writeTimeoutSeconds").map(Duration.seconds) ?? writeTimeout
        idleTimeout = reader.int(forKey: "idleTimeoutSeconds").map(Duration.seconds) ?? idleTimeout
        shutdownGrace = reader.int(forKey: "shutdownGraceSeconds").map(Duration.seconds) ?? shutdownGrace
        if let ranges = reader.stringArray(forKey: "trustedProxies") {
            trustedProxies = ranges.compactMap { CIDR($0) }
        }
    }
}
