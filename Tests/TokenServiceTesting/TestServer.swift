public import Foundation
import Logging
import PostgresStore
public import PostgresTesting
public import Prometheus
import SQLiteStore
import Store
import StructuredLogging
import Testing
public import TokenService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `TokenServer` with a temporary database, cheap Argon2id, a stream key and the log lines it writes
/// captured in a file; the one in-process server of the test suite.
///
/// In ``Mode/socket`` it listens on 127.0.0.1, port 0, and ``request(_:_:headers:json:)`` goes through
/// ``TestSession``; in ``Mode/router`` nothing listens and requests run through the same routes and handlers
/// without a socket (``RouteDriver``), like Hummingbird's `.router` test mode.
public final class TestServer: Sendable {
    /// How requests reach the server.
    public enum Mode: Sendable {
        /// A listening server on a loopback port: the wire, URLSession, the event loops.
        case socket
        /// No socket: requests are handed to the router and its handlers directly.
        case router
    }

    /// The secret of the stream key `stream-1`.
    public static let streamSecret = "stream-secret-stream-secret-stream-secret-stream-secret-stream-secret-01"
    /// The password ``signUp(email:)`` registers.
    public static let password = "correct horse battery"

    /// The server (in ``Mode/router`` never started).
    public let server: TokenServer
    /// The bound port; 0 in ``Mode/router``.
    public let port: Int
    /// The temporary folder holding the database and the log file.
    public let directory: URL
    /// The file the server's log lines go to.
    public let logFile: URL
    /// The loaded configuration.
    public let configuration: TokenServiceConfiguration
    /// How requests reach the server.
    public let mode: Mode
    /// The schema holding the server's tables when it runs on PostgreSQL (``TestBackend/postgres``), else nil.
    public let postgresSchema: PostgresTestSchema?
    let driver: RouteDriver
    private let logDescriptor: Int32

    /// Builds a server and, in ``Mode/socket``, starts it; `environment` adds or overrides `TOKENVEND_*`
    /// settings. With a `mossUpstream`, Moss is configured (test project id and key) and served by it. With
    /// `TOKENVEND_TEST_BACKEND=postgres` the server runs on a schema of its own on the test cluster (see
    /// ``TestBackend``), unless `environment` names a SQLite file or a database URL itself.
    public init(
        mode: Mode = .socket, environment extra: [String: String] = [:], mossUpstream: (any MossUpstream)? = nil,
        now: (@Sendable () -> Date)? = nil,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        flush: @escaping @Sendable () -> Void = {}
    ) async throws {
        self.mode = mode
        directory = FileManager.default.temporaryDirectory.appending(path: "tokenvend-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var environment = [
            "TOKENVEND_SERVER_PORT": "0",
            "TOKENVEND_DATABASE_PATH": directory.appending(path: "db/tokenvend.sqlite").path,
            "TOKENVEND_PASSWORD_TIME_COST": "1",
            "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
            "TOKENVEND_STREAM_KEYS": #"[{"kid":"stream-1","secret":"\#(Self.streamSecret)"}]"#,
            "TOKENVEND_SERVER_SHUTDOWN_GRACE_SECONDS": "2",
        ]
        // Email goes to .eml files in the test's own folder (never the repository's data/) unless the test names
        // a transport or an SMTP server (`mailEnvironment(smtpPort:)`: an SMTPSink).
        if extra["TOKENVEND_EMAIL_TRANSPORT"] == nil && extra["TOKENVEND_EMAIL_SMTP_URL"] == nil {
            environment["TOKENVEND_EMAIL_TRANSPORT"] = "file"
        }
        environment["TOKENVEND_EMAIL_FILE_DIRECTORY"] = directory.appending(path: "outbox").path
        if mossUpstream != nil {
            environment["TOKENVEND_MOSS_PROJECT_ID"] = "project-test"
            environment["TOKENVEND_MOSS_PROJECT_KEY"] = "project-key-test"
        }
        environment.merge(extra) { _, new in new }
        // A test naming its own database URL (several servers on one PostgreSQL database) drops the default file.
        if extra["TOKENVEND_DATABASE_URL"] != nil, extra["TOKENVEND_DATABASE_PATH"] == nil {
            environment["TOKENVEND_DATABASE_PATH"] = nil
        }
        postgresSchema = try Self.choosePostgres(&environment, extra: extra)
        configuration = try ConfigurationLoader.load(
            environment: environment, defaultConfigPath: directory.appending(path: "none.json").path
        ).configuration
        logFile = directory.appending(path: "server.log")
        logDescriptor = open(logFile.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        let descriptor = logDescriptor
        var logger = Logger(label: "tokenvend-test") { label in
            StructuredLogHandler(label: label, format: .json, level: .trace, fileDescriptor: descriptor)
        }
        logger.logLevel = .trace
        let backend = try await Self.openStore(configuration, callersClock: now != nil)
        do {
            server = try TokenServer(
                configuration: configuration, backend: backend, logger: logger, mossUpstream: mossUpstream,
                now: now ?? { Date() }, metricsRegistry: metricsRegistry, flush: flush)
        } catch {
            backend.close()
            throw error
        }
        driver = RouteDriver(server: server)
        port = mode == .socket ? try server.start() : 0
    }

    /// The settings that send the server's email to an SMTP server on 127.0.0.1 at `smtpPort` (an `SMTPSink` of
    /// `MailTesting`), for `environment:`.
    public static func mailEnvironment(smtpPort: Int) -> [String: String] {
        ["TOKENVEND_EMAIL_SMTP_URL": "smtp://127.0.0.1:\(smtpPort)", "TOKENVEND_EMAIL_TRANSPORT": "smtp"]
    }

    /// The folder of the `file` email transport (the default for test servers): one `.eml` file per message.
    public var outboxDirectory: URL { directory.appending(path: "outbox") }

    /// Drains and stops the server (in ``Mode/router`` it only closes the database), and removes its files.
    public func stop() async {
        await server.shutdown()
        postgresSchema?.remove()
        close(logDescriptor)
        try? FileManager.default.removeItem(at: directory)
    }

    /// With ``TestBackend/postgres``, moves the server to a schema of its own on the test cluster, with configured
    /// keys unless the test gives its own (a shared store refuses development keys). A test that names its own
    /// SQLite file (`TOKENVEND_DATABASE_PATH`) or database URL keeps it.
    private static func choosePostgres(_ environment: inout [String: String], extra: [String: String]) throws
        -> PostgresTestSchema?
    {
        guard TestBackend.current == .postgres, extra["TOKENVEND_DATABASE_PATH"] == nil,
            extra["TOKENVEND_DATABASE_URL"] == nil
        else { return nil }
        let schema = try PostgresTestSchema.make(prefix: "s_")
        environment["TOKENVEND_DATABASE_PATH"] = nil
        environment["TOKENVEND_DATABASE_URL"] = schema.url
        if extra["TOKENVEND_ACCESS_TOKEN_KEYS"] == nil {
            environment["TOKENVEND_ACCESS_TOKEN_KEYS"] = TestBackend.accessKeys
        }
        if extra["TOKENVEND_REFRESH_TOKEN_SECRET"] == nil && extra["TOKENVEND_REFRESH_TOKEN_SECRET_FILE"] == nil {
            environment["TOKENVEND_REFRESH_TOKEN_SECRET"] = TestBackend.refreshSecret
        }
        return schema
    }

    /// Opens the configured store. A test that drives the server's clock (`now`) gets a PostgreSQL store on the
    /// caller's clock (`PostgresStore.Clock.caller`), so that the grace window, expiry and the session cap follow
    /// that clock as they do on SQLite; otherwise the database clock decides, as in production.
    private static func openStore(_ configuration: TokenServiceConfiguration, callersClock: Bool) async throws
        -> any StoreBackend
    {
        guard callersClock,
            var postgres = StoreOpener.postgresConfiguration(configuration)
        else { return try await StoreOpener.open(configuration) }
        postgres.clock = .caller
        return try await PostgresStore(configuration: postgres)
    }

    /// Everything the server has logged so far.
    public func logs() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// `http://127.0.0.1:<port>/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/") ?? URL(fileURLWithPath: "/") }

    /// Sends one request and returns the answer; never follows redirects or stores cookies.
    public func request(
        _ method: String, _ path: String, headers: [String: String] = [:], json: String? = nil
    ) async throws -> TestResponse {
        var headers = headers
        if json != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        let body = json.map { Array($0.utf8) } ?? []
        if mode == .router { return await driver.respond(method, path, headers: headers, body: body) }
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if json != nil { request.httpBody = Data(body) }
        let (data, response) = try await TestSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return TestResponse(status: http.statusCode, headers: fields, body: data)
    }

    /// Registers and logs in a user; returns the login answer.
    public func signUp(email: String = "user-\(UUID().uuidString.prefix(8))@example.com") async throws -> Login {
        let registered = try await request(
            "POST", "/auth/register", json: #"{"email":"\#(email)","password":"\#(Self.password)"}"#)
        #expect(registered.status == 201)
        return try await logIn(email: email)
    }

    /// Logs in an existing user with the test password.
    public func logIn(email: String, headers: [String: String] = [:]) async throws -> Login {
        let response = try await request(
            "POST", "/auth/login", headers: headers, json: #"{"email":"\#(email)","password":"\#(Self.password)"}"#)
        #expect(response.status == 200)
        let object = try response.object()
        return Login(
            email: email, accessToken: try #require(object["accessToken"] as? String),
            refreshToken: try #require(object["refreshToken"] as? String),
            userID: try #require((object["user"] as? [String: Any])?["id"] as? String))
    }
}

extension TestServer {
    /// Refresh tokens the server has issued so far (logins and refreshes: `tokenvend_tokens_issued_total`).
    public var refreshTokensIssued: Int { Int(server.metrics.tokensIssued.value(.refresh)) }

    /// Successful `POST /auth/refresh` answers so far (`tokenvend_http_requests_total`).
    public var refreshesAnswered: Int { Int(server.metrics.requests.value("/auth/refresh", "POST", "200")) }

    /// Refused `POST /auth/refresh` answers so far.
    public var refreshesRefused: Int { Int(server.metrics.requests.value("/auth/refresh", "POST", "401")) }

    /// Spent refresh tokens presented again (`tokenvend_refresh_reuse_detected_total`).
    public var reuseDetected: Int { Int(server.metrics.refreshReuseDetected.value()) }
}

/// A signed-in test user.
public struct Login: Sendable {
    /// The email address.
    public let email: String
    /// The access token of the login.
    public let accessToken: String
    /// The refresh token of the login.
    public let refreshToken: String
    /// The user's id.
    public let userID: String

    /// `Authorization: Bearer <access token>`.
    public var bearer: [String: String] { ["Authorization": "Bearer \(accessToken)"] }
}

/// One HTTP answer, with lowercased header names.
public struct TestResponse: Sendable {
    /// The status code.
    public let status: Int
    /// The header fields, names lowercased.
    public let headers: [String: String]
    /// The body bytes.
    public let body: Data

    /// Creates an answer.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object.
    public func object() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    /// The `error` code of an API.md error body.
    public var errorCode: String? { (try? object())?["error"] as? String }
}

/// Runs `body` against a fresh server and always stops it.
public func withTestServer<T>(
    mode: TestServer.Mode = .socket, environment: [String: String] = [:], mossUpstream: (any MossUpstream)? = nil,
    now: (@Sendable () -> Date)? = nil, _ body: (TestServer) async throws -> T
) async throws -> T {
    let server = try await TestServer(mode: mode, environment: environment, mossUpstream: mossUpstream, now: now)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
