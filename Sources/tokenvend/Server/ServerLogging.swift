import FoundationEssentials
import Logging
import StructuredLogging
import TokenService

/// The server's logging: one buffered stderr output, owned by the executable, behind every swift-log handler.
struct ServerLogging {
    /// The logger `serve` writes its own events with.
    let logger: Logger
    /// The buffered stderr output every handler writes to; the server flushes it after each batch of socket
    /// events, and `serve` once more before it exits.
    let output: LogOutput

    /// Bootstraps swift-log once for the process: structured lines on stderr at the configured level, through
    /// one buffered output that the caller flushes (hand `output.flush` to `TokenServer`).
    static func bootstrap(_ log: TokenServiceConfiguration.Log) -> ServerLogging {
        let format: StructuredLogHandler.Format = log.format == .logfmt ? .logfmt : .json
        let level = log.level
        let output = LogOutput(fileDescriptor: 2, buffered: true)
        LoggingSystem.bootstrap { label in
            StructuredLogHandler(label: label, format: format, level: level, output: output)
        }
        return ServerLogging(logger: Logger(label: "tokenvend"), output: output)
    }
}
