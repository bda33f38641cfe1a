import Foundation
import HTTPServer
import InMemoryLogging
import Logging
import PostgresTesting
import Testing
import TokenServiceTesting

@testable import TokenService

/// The service on PostgreSQL (`database.url`), through `TokenServer.open`: the routes, readiness while the
/// database goes away and comes back, and a startup log that never shows the URL's password. Run through
/// `scripts/with-postgres.sh` (or `make test`).
@Suite(.tags(.integration), .timeLimit(.minutes(2)), .serialized)
struct PostgresServiceTests {
    static let keys: [String: String] = [
        "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"k1","secret":"\#(strongSecret)"}]"#,
        "TOKENVEND_REFRESH_TOKEN_SECRET": otherStrongSecret,
        "TOKENVEND_PASSWORD_TIME_COST": "1",
        "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
        "TOKENVEND_STREAM_KEYS": #"[{"kid":"stream-1","secret":"\#(TestServer.streamSecret)"}]"#,
        "TOKENVEND_DATABASE_PATH": "",
    ]

    /// Runs `body` with a server on a fresh schema, opened through the configuration as `serve` opens it.
    static func withServer<T>(
        url: (String) -> String = { $0 }, logger: Logger = Logger(label: "pg"),
        _ body: (TokenServer, PostgresTestSchema) async throws -> T
    ) async throws -> T {
        let schema = try PostgresTestSchema.make()
        defer { schema.remove() }
        var environment = keys
        environment["TOKENVEND_DATABASE_URL"] = url(schema.url)
        environment["TOKENVEND_DATABASE_QUERY_TIMEOUT_MILLISECONDS"] = "1000"
        environment["TOKENVEND_DATABASE_CONNECT_TIMEOUT_SECONDS"] = "1"
        let fixture = try ConfigurationFixture()
        let loaded = try ConfigurationLoader.load(environment: environment, defaultConfigPath: fixture.noFile)
        let server = try await TokenServer.open(configuration: loaded.configuration, logger: logger)
        do {
            let result = try await body(server, schema)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    static func request(
        _ server: TokenServer, _ method: String, _ target: String, headers: [String: String] = [:],
        json: String? = nil
    ) async -> (status: Int, headers: [String: String], json: [String: Any]) {
        var fields: HTTPHeaders = ["Host": "127.0.0.1"]
        for (name, value) in headers { fields.add(name: name, value: value) }
        let body = json.map { Array($0.utf8) } ?? []
        if json != nil { fields.add(name: "Content-Type", value: "application/json") }
        if !body.isEmpty { fields.add(name: "Content-Length", value: String(body.count)) }
        let (response, _) = await server.respond(
            method: HTTPMethod(method), target: target, headers: fields, body: body, peer: IPAddress(ipv4: 0x7F00_0001))
        var answer: [String: String] = [:]
        for field in response.headers { answer[field.name.lowercased()] = field.value }
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
        return (response.status.code, answer, object)
    }

    @Test("register, login, me, stream-token, refresh and logout work on PostgreSQL, rows in its tables")
    func flow() async throws {
        try await Self.withServer { server, schema in
            let credentials = #"{"email":"ada@example.com","password":"\#(TestServer.password)"}"#
            #expect(await Self.request(server, "POST", "/auth/register", json: credentials).status == 201)
            let login = await Self.request(server, "POST", "/auth/login", json: credentials)
            #expect(login.status == 200)
            let access = try #require(login.json["accessToken"] as? String)
            let refresh = try #require(login.json["refreshToken"] as? String)
            let bearer = ["Authorization": "Bearer \(access)"]
            // The sub of the login answer's user (the self-registered email is unverified, so not in the token).
            let user = try #require(login.json["user"] as? [String: Any])
            #expect(
                await Self.request(server, "GET", "/auth/me", headers: bearer).json["sub"] as? String
                    == user["id"] as? String)
            #expect(await Self.request(server, "POST", "/stream-token", headers: bearer).status == 200)
            let rotated = await Self.request(server, "POST", "/auth/refresh", json: #"{"refreshToken":"\#(refresh)"}"#)
            #expect(rotated.status == 200)
            #expect(try schema.query("SELECT count(*) FROM users") == "1")
            #expect(try schema.query("SELECT counter FROM sessions") == "1")
            #expect(await Self.request(server, "POST", "/auth/logout", headers: bearer).status == 204)
            #expect(await Self.request(server, "GET", "/auth/me", headers: bearer).status == 401)
            // Shared counters: the failures and requests above are rows, not process memory.
            #expect(Int(try schema.query("SELECT count(*) FROM rate_limits")) ?? 0 >= 1)
        }
    }

    @Test("readyz answers 503 with Retry-After while PostgreSQL is down, and 200 again once it is back")
    func readinessRecovers() async throws {
        try await Self.withServer { server, _ in
            #expect(await Self.request(server, "GET", "/readyz").status == 200)
            try PostgresTestSchema.control("stop")
            let started = ContinuousClock.now
            let down = await Self.request(server, "GET", "/readyz")
            let login = await Self.request(
                server, "POST", "/auth/login",
                json: #"{"email":"ada@example.com","password":"\#(TestServer.password)"}"#)
            let elapsed = started.duration(to: .now)
            try PostgresTestSchema.control("start")
            #expect(down.status == 503)
            #expect(down.headers["retry-after"] == "5")
            #expect(down.headers["cache-control"] == "no-store")
            #expect(login.status == 503)
            #expect(login.headers["retry-after"] != nil)
            #expect(elapsed < .seconds(6))
            var ready = 0
            for _ in 0..<50 where ready != 200 {
                ready = await Self.request(server, "GET", "/readyz").status
                if ready != 200 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(ready == 200)
        }
    }

    @Test("the startup line names the database without its password")
    func startupLogRedacted() async throws {
        let logging = InMemoryLogHandler()
        let logger = Logger(label: "pg") { _ in logging }
        try await Self.withServer(
            url: { $0.replacingOccurrences(of: "tokenvend@", with: "tokenvend:pa55word-s3cret@") }, logger: logger
        ) { server, _ in
            _ = try server.start()
            let lines = logging.entries.map { "\($0.message) \($0.metadata ?? [:])" }
            let listening = try #require(lines.first { $0.contains("tokenvend listening") })
            #expect(listening.contains("postgres://tokenvend@127.0.0.1"))
            #expect(!lines.joined().contains("pa55word"))
        }
    }
}
