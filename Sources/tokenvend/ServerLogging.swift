import Foundation
import Logging
import TokenService

/// Bootstraps swift-log once for the process: structured lines on stderr at the configured level.
enum ServerLogging {
    static func bootstrap(_ log: TokenServiceConfiguration.Log) -> Logger {
        let format: StructuredLogHandler.Format = log.format == .logfmt ? .logfmt : .json
        let level = log.level
        LoggingSystem.bootstrap { label in
            StructuredLogHandler(label: label, format: format, level: level, buffered: true)
        }
        return Logger(label: "tokenvend")
    }
}
