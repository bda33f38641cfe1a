import Foundation
import HTTPServer
import Logging
import SQLiteStore
import Store
import TokenServiceTesting

@testable import TokenService

/// A `TokenServer` in router mode (no socket) on a `FaultyStore` over a temporary SQLite file.
struct FaultyServer {
    let server: TokenServer
    let faults: StoreFaults
    let directory: URL

    /// One answer: status, lowercased header names, body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        var errorCode: String? {
            let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
            return object?["error"] as? String
        }

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:] }
    }

    /// Runs `body` with a server whose store is faulty as `faults` says; `counters` become the store's shared
    /// rate-limit counters (then the service limits through them).
    static func with<T>(
        counters: (any RateLimitCounters)? = nil, environment extra: [String: String] = [:],
        now: @escaping @Sendable () -> Date = { Date() }, _ body: (FaultyServer) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appending(path: "tokenvend-faulty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = [
            "TOKENVEND_DATABASE_PATH": directory.appending(path: "db/tokenvend.sqlite").path,
            "TOKENVEND_PASSWORD_TIME_COST": "1",
            "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
            "TOKENVEND_STREAM_KEYS": #"[{"kid":"stream-1","secret":"\#(TestServer.streamSecret)"}]"#,
        ]
        environment.merge(extra) { _, new in new }
        let configuration = try ConfigurationLoader.load(
            environment: environment, defaultConfigPath: directory.appending(path: "none.json").path
        ).configuration
        let faults = StoreFaults()
        let store = FaultyStore(
            inner: try SQLiteStore(configuration: configuration.database), faults: faults, counters: counters)
        let server = try TokenServer(
            configuration: configuration, backend: store, logger: Logger(label: "faulty"), now: now)
        let faulty = FaultyServer(server: server, faults: faults, directory: directory)
        do {
            let result = try await body(faulty)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    func request(_ method: String, _ target: String, headers: [String: String] = [:], json: String? = nil) async
        -> Answer
    {
        var fields: HTTPHeaders = ["Host": "127.0.0.1"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.add(name: name, value: value) }
        let body = json.map { Array($0.utf8) } ?? []
        if json != nil { fields.add(name: "Content-Type", value: "application/json") }
        if !body.isEmpty { fields.add(name: "Content-Length", value: String(body.count)) }
        let (response, _) = await server.respond(
            method: HTTPMethod(method), target: target, headers: fields, body: body, peer: IPAddress(ipv4: 0x7F00_0001))
        var answer: [String: String] = [:]
        for field in response.headers { answer[field.name.lowercased()] = field.value }
        return Answer(status: response.status.code, headers: answer, body: response.body)
    }

    /// Registers `email` with the test password and logs in; returns the login's JSON.
    func signUp(_ email: String) async throws -> (access: String, refresh: String) {
        let credentials = #"{"email":"\#(email)","password":"\#(TestServer.password)"}"#
        _ = await request("POST", "/auth/register", json: credentials)
        let login = await request("POST", "/auth/login", json: credentials)
        guard let access = login.json["accessToken"] as? String, let refresh = login.json["refreshToken"] as? String
        else { throw FaultyServerError.loginFailed(login.status) }
        return (access, refresh)
    }
}

enum FaultyServerError: Error {
    case loginFailed(Int)
}
