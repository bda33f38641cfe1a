import Foundation
import Logging
import Testing
import TokenService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Tag {
    /// End-to-end tests: a real server on a loopback port.
    @Tag static var integration: Self
}

/// A real `TokenServer` on 127.0.0.1, port 0, with a temporary database, cheap Argon2id, a stream key and
/// the log lines it writes captured in a file.
final class TestServer: Sendable {
    static let streamSecret = "stream-secret-stream-secret-stream-secret-stream-secret-stream-secret-01"
    static let password = "correct horse battery"

    let server: TokenServer
    let port: Int
    let directory: URL
    let logFile: URL
    let configuration: TokenServiceConfiguration
    private let logDescriptor: Int32

    /// Starts a server; `environment` adds or overrides `TOKENVEND_*` settings.
    init(
        environment extra: [String: String] = [:], mossUpstream: (any MossUpstream)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var environment = [
            "TOKENVEND_SERVER_PORT": "0",
            "TOKENVEND_DATABASE_PATH": directory.appendingPathComponent("db/tokenvend.sqlite").path,
            "TOKENVEND_PASSWORD_TIME_COST": "1",
            "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
            "TOKENVEND_STREAM_KEYS": #"[{"kid":"stream-1","secret":"\#(Self.streamSecret)"}]"#,
            "TOKENVEND_SERVER_SHUTDOWN_GRACE_SECONDS": "2",
        ]
        environment.merge(extra) { _, new in new }
        configuration = try ConfigurationLoader.load(
            environment: environment, defaultConfigPath: directory.appendingPathComponent("none.json").path
        ).configuration
        logFile = directory.appendingPathComponent("server.log")
        logDescriptor = open(logFile.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        let descriptor = logDescriptor
        var logger = Logger(label: "tokenvend-test") { label in
            StructuredLogHandler(label: label, format: .json, level: .trace, fileDescriptor: descriptor)
        }
        logger.logLevel = .trace
        server = try TokenServer(configuration: configuration, logger: logger, mossUpstream: mossUpstream, now: now)
        port = try server.start()
    }

    /// Drains and stops the server, and removes its files.
    func stop() async {
        await server.shutdown()
        close(logDescriptor)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Everything the server has logged so far.
    func logs() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/") ?? URL(fileURLWithPath: "/") }

    /// Sends one request and returns the answer; never follows redirects or stores cookies.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], json: String? = nil
    ) async throws -> TestResponse {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = Data(json.utf8)
            if headers["Content-Type"] == nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        }
        let (data, response) = try await Self.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return TestResponse(status: http.statusCode, headers: fields, body: data)
    }

    /// Registers and logs in a user; returns the login answer.
    func signUp(email: String = "user-\(UUID().uuidString.prefix(8))@example.com") async throws -> Login {
        let registered = try await request(
            "POST", "/auth/register", json: #"{"email":"\#(email)","password":"\#(Self.password)"}"#)
        #expect(registered.status == 201)
        return try await logIn(email: email)
    }

    /// Logs in an existing user with the test password.
    func logIn(email: String, headers: [String: String] = [:]) async throws -> Login {
        let response = try await request(
            "POST", "/auth/login", headers: headers, json: #"{"email":"\#(email)","password":"\#(Self.password)"}"#)
        #expect(response.status == 200)
        let object = try response.object()
        return Login(
            email: email, accessToken: try #require(object["accessToken"] as? String),
            refreshToken: try #require(object["refreshToken"] as? String),
            userID: try #require((object["user"] as? [String: Any])?["id"] as? String))
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 20
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()
}

/// A signed-in test user.
struct Login: Sendable {
    let email: String
    let accessToken: String
    let refreshToken: String
    let userID: String

    var bearer: [String: String] { ["Authorization": "Bearer \(accessToken)"] }
}

/// One HTTP answer, with lowercased header names.
struct TestResponse: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func object() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    /// The `error` code of an API.md error body.
    var errorCode: String? { (try? object())?["error"] as? String }
}

/// Runs `body` against a fresh server and always stops it.
func withTestServer<T>(
    environment: [String: String] = [:], mossUpstream: (any MossUpstream)? = nil,
    now: @escaping @Sendable () -> Date = { Date() }, _ body: (TestServer) async throws -> T
) async throws -> T {
    let server = try TestServer(environment: environment, mossUpstream: mossUpstream, now: now)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
