import Foundation
import Logging
import Synchronization
import Testing
import TokenClient
import TokenService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Tag {
    /// End-to-end tests: a real `TokenServer` on a loopback port, driven through `TokenClient`.
    @Tag static var integration: Self
}

/// A real `TokenServer` on 127.0.0.1, port 0, with a temporary database, cheap Argon2id, a stream key and a
/// counting fake Moss upstream. The token clock is injectable; logs are discarded.
final class LiveServer: Sendable {
    static let streamSecret = "e2e-stream-secret-e2e-stream-secret-e2e-stream-secret-e2e-stream-01"
    static let password = "correct horse battery"

    let server: TokenServer
    let port: Int
    let directory: URL
    let moss = CountingMossUpstream()

    /// Starts a server; `environment` adds or overrides `TOKENVEND_*` settings.
    init(environment extra: [String: String] = [:], now: @escaping @Sendable () -> Date) throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "tokenvend-client-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var environment = [
            "TOKENVEND_SERVER_PORT": "0",
            "TOKENVEND_DATABASE_PATH": directory.appending(path: "db/tokenvend.sqlite").path,
            "TOKENVEND_PASSWORD_TIME_COST": "1",
            "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
            "TOKENVEND_STREAM_KEYS": #"[{"kid":"stream-e2e","secret":"\#(Self.streamSecret)"}]"#,
            "TOKENVEND_MOSS_PROJECT_ID": "project-e2e",
            "TOKENVEND_MOSS_PROJECT_KEY": "project-key-e2e",
            "TOKENVEND_SERVER_SHUTDOWN_GRACE_SECONDS": "2",
        ]
        environment.merge(extra) { _, new in new }
        let configuration = try ConfigurationLoader.load(
            environment: environment, defaultConfigPath: directory.appending(path: "none.json").path
        ).configuration
        server = try TokenServer(
            configuration: configuration,
            logger: Logger(label: "tokenvend-client-e2e") { _ in SwiftLogNoOpLogHandler() },
            mossUpstream: moss, now: now)
        port = try server.start()
    }

    /// Drains and stops the server, and removes its files.
    func stop() async {
        await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/") ?? URL(fileURLWithPath: "/") }

    /// Refresh tokens the server has issued so far (logins and refreshes: `tokenvend_tokens_issued_total`).
    var refreshTokensIssued: Int { Int(server.metrics.tokensIssued.value(.refresh)) }

    /// Successful `POST /auth/refresh` answers so far (`tokenvend_http_requests_total`).
    var refreshesAnswered: Int { Int(server.metrics.requests.value("/auth/refresh", "POST", "200")) }

    /// Refused `POST /auth/refresh` answers so far.
    var refreshesRefused: Int { Int(server.metrics.requests.value("/auth/refresh", "POST", "401")) }

    /// Spent refresh tokens presented again (`tokenvend_refresh_reuse_detected_total`).
    var reuseDetected: Int { Int(server.metrics.refreshReuseDetected.value()) }

    /// A client session on this server.
    func session(
        store: any TokenStore = InMemoryTokenStore(), now: @escaping @Sendable () -> Date
    ) -> AuthSession {
        AuthSession(baseURL: baseURL, transport: Self.transport, store: store, now: now)
    }

    /// Registers `email` with the test password and signs `session` in.
    func signUp(_ session: AuthSession, email: String = "user-\(UUID().uuidString.prefix(8))@example.com")
        async throws
    {
        try await session.register(email: email, password: Self.password)
        try await session.login(email: email, password: Self.password)
    }

    /// The status and `error` code of one request sent outside any `AuthSession`.
    func rawStatus(_ method: String, _ path: String, bearer: String? = nil, json: String? = nil) async throws -> (
        status: Int, error: String?
    ) {
        var request = URLRequest(url: baseURL.appending(path: path))
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await Self.transport.send(request)
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (response.statusCode, object?["error"] as? String)
    }

    /// Whether the server still honours `refreshToken` (presenting it rotates it when it is live).
    func refreshStatus(_ refreshToken: String) async throws -> (status: Int, error: String?) {
        try await rawStatus("POST", "auth/refresh", json: #"{"refreshToken":"\#(refreshToken)"}"#)
    }

    /// One URLSession for every test: enough connections for the concurrency tests, no cache, no cookies.
    static let transport: URLSessionTransport = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 20
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        configuration.httpMaximumConnectionsPerHost = 32
        return URLSessionTransport(session: URLSession(configuration: configuration))
    }()
}

/// Runs `body` against a fresh server and always stops it.
func withLiveServer<T>(
    environment: [String: String] = [:], now: @escaping @Sendable () -> Date, _ body: (LiveServer) async throws -> T
) async throws -> T {
    let server = try LiveServer(environment: environment, now: now)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A Moss upstream that hands out `moss-project-token-<n>` for an hour and counts the exchanges.
final class CountingMossUpstream: MossUpstream {
    private let calls = Mutex(0)

    var callCount: Int { calls.withLock { $0 } }

    func fetchProjectToken() async throws(MossError) -> MossProjectToken {
        let call = calls.withLock { count in
            count += 1
            return count
        }
        return MossProjectToken(token: "moss-project-token-\(call)", expiresIn: 3600)
    }
}
