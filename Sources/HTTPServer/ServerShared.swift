import Logging

/// What every event loop reads and nobody changes after start.
struct ServerShared: Sendable {
    let configuration: HTTPServer.Configuration
    let router: Router
    let logger: Logger
    let parserLimits: HTTPRequestParser.Limits
    let observer: (@Sendable (CompletedRequest) -> Void)?
    let afterEvents: (@Sendable () -> Void)?
}
