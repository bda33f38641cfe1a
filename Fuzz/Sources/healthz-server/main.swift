// A minimal server for load tests: GET /healthz, POST /echo (JSON). Usage: healthz-server [--port N]
// [--max-connections N] [--loops N]
// [--header-timeout S] [--body-timeout S]; LOG_LEVEL (default warning) sets the access-log level.
import HTTPServer
import Logging

#if canImport(Glibc)
    import Glibc
#endif

var configuration = HTTPServer.Configuration(port: 8080)
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    let value = arguments.next().flatMap { Int($0) }
    switch (argument, value) {
    case ("--port", let value?): configuration.port = value
    case ("--max-connections", let value?): configuration.maxConnections = value
    case ("--loops", let value?): configuration.eventLoopCount = value
    case ("--header-timeout", let value?): configuration.headerTimeout = .seconds(value)
    case ("--body-timeout", let value?): configuration.bodyIdleTimeout = .seconds(value)
    default:
        print(
            "usage: healthz-server [--port N] [--max-connections N] [--loops N] [--header-timeout S] [--body-timeout S]"
        )
        exit(2)
    }
}
let level = getenv("LOG_LEVEL").flatMap { Logger.Level(rawValue: String(cString: $0)) } ?? .warning
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = level
    return handler
}
let logger = Logger(label: "healthz-server")

var router = Router()
let healthy = Array(#"{"status":"ok"}"#.utf8)
router.get("/healthz") { _, _ in .json(bytes: healthy) }
router.post("/echo") { request, _ in .json(bytes: request.body) }

let server = HTTPServer(configuration: configuration, router: router, logger: logger)
let port = try server.start()
print("listening on \(configuration.host):\(port)")
try await server.run()
