import Foundation
import PostgresTesting
import TokenClientTesting
import TokenServiceTesting

/// A folder, a store (SQLite in the folder, or a fresh PostgreSQL database under `TOKENVEND_TEST_BACKEND=postgres`
/// or when asked) and the configuration of `tokenvend serve` processes that send mail over SMTP to a loopback
/// port. Removes the folder and drops the database when released.
final class EmailServerFixture {
    static let accessKey = "email-resilience-access-key-" + String(repeating: "a", count: 64)
    static let refreshSecret = "email-resilience-refresh-secret-" + String(repeating: "r", count: 64)
    static let password = "email resilience passphrase 4711"

    let folder: TemporaryFolder
    /// The PostgreSQL database, when the store is one.
    let database: String?

    init(postgres: Bool = TestBackend.current == .postgres) throws {
        folder = try TemporaryFolder()
        database = postgres ? try TestPostgres.createDatabase() : nil
    }

    deinit {
        if let database { TestPostgres.dropDatabase(database) }
        folder.remove()
    }

    /// The configuration: the store, fixed keys (a shared store refuses generated ones), cheap Argon2id, SMTP to
    /// `127.0.0.1:smtpPort`, per-address limits high enough for `addresses` distinct requests a minute, and
    /// `email` members merged over the defaults.
    func configuration(smtpPort: Int, requestsPerMinute: Int = 100_000, email extra: [String: Any] = [:]) throws
        -> [String: Any]
    {
        var email: [String: Any] = [
            "transport": "smtp", "smtp": ["url": "smtp://127.0.0.1:\(smtpPort)"],
            "from": "Resilience <no-reply@example.com>", "appName": "Resilience",
        ]
        email.merge(extra) { _, new in new }
        let store: [String: Any] =
            if let database { ["url": try TestPostgres.url(database: database)] } else {
                ["path": folder.url.appending(path: "data/tokenvend.sqlite").path]
            }
        return [
            "database": store,
            "accessToken": ["keys": [["kid": "at-1", "secret": Self.accessKey]]],
            "refreshToken": ["secret": Self.refreshSecret],
            "password": ["timeCost": 1, "memoryCost": 8192],
            "rateLimit": ["requestsPerAddressPerMinute": requestsPerMinute],
            "email": email,
            "log": ["format": "json", "level": "info"],
        ]
    }

    /// The code in a message's plain text: its only run of exactly `length` digits.
    static func code(in text: String, length: Int = 6) -> String? {
        let runs = text.split { !$0.isASCII || !$0.isNumber }.filter { $0.count == length }
        return runs.count == 1 ? runs.first.map { String($0) } : nil
    }

    /// The value of the Prometheus series `name{labels}` in `/metrics` of `client`'s server, or nil when absent.
    static func metric(_ name: String, _ labels: [String: String] = [:], at client: ServeClient) async throws -> Double?
    {
        let answer = try await client.send("GET", "/metrics")
        let text = String(decoding: answer.body, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name) && !line.hasPrefix("#") {
            let head = line.split(separator: " ").dropLast().joined(separator: " ")
            guard head == name || head.hasPrefix(name + "{") else { continue }
            guard labels.allSatisfy({ head.contains(#"\#($0.key)="\#($0.value)""#) }) else { continue }
            return line.split(separator: " ").last.flatMap { Double(String($0)) }
        }
        return nil
    }
}
