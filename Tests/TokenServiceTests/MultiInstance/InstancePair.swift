import Foundation
import PostgresTesting

/// Two `tokenvend serve` processes, A and B, on one fresh PostgreSQL database, with the same configuration file:
/// the same access-token key and refresh secret (a shared store refuses generated development keys), cheap
/// Argon2id, and a database URL carrying a password that the trusting test cluster never checks, so tests can
/// look for it in logs and metrics.
final class InstancePair {
    /// Settings that differ between tests.
    struct Settings {
        /// `refreshToken.reuseGraceSeconds`.
        var reuseGraceSeconds = 10
        /// `rateLimit.loginFailuresPerAccount`.
        var loginFailuresPerAccount = 5
        /// `rateLimit.requestsPerAddressPerMinute`: high, since every request comes from 127.0.0.1.
        var requestsPerAddressPerMinute = 1_000_000
    }

    static let accessKey = "multi-instance-access-key-" + String(repeating: "a", count: 64)
    static let refreshSecret = "multi-instance-refresh-secret-" + String(repeating: "r", count: 64)
    /// The password in the database URL: it must never appear in a log line or in `/metrics`.
    static let databasePassword = "pw-multi-instance-not-for-logs-7c1f"
    static let userPassword = "correct horse battery"

    let folder: URL
    let database: String
    /// The database URL with its password (for `psql`).
    let databaseURL: String
    let a: Instance
    let b: Instance

    /// Creates the database and the configuration file and launches both processes at the same moment; returns
    /// once both answer `GET /readyz` with 200.
    init(_ settings: Settings = Settings()) async throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-multi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = try TestPostgres.createDatabase()
        databaseURL = try TestPostgres.url(database: database, password: Self.databasePassword)
        let configuration = folder.appending(path: "tokenvend.json")
        try Self.configurationText(databaseURL: databaseURL, settings).write(
            to: configuration, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configuration.path)
        a = try Instance(name: "A", configuration: configuration, folder: folder)
        b = try Instance(name: "B", configuration: configuration, folder: folder)
        // Both processes are running from here; waiting for one, then the other, does not delay either.
        try await a.waitUntilReady()
        try await b.waitUntilReady()
    }

    deinit {
        if a.process.isRunning { a.stop(with: SIGKILL) }
        if b.process.isRunning { b.stop(with: SIGKILL) }
        TestPostgres.dropDatabase(database)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `sql` on the pair's database.
    func psql(_ sql: String) throws -> String {
        try TestPostgres.psql(databaseURL, sql)
    }

    /// Both logs, for the leak checks and for messages.
    func logs() -> String {
        "--- A ---\n" + a.logs() + "--- B ---\n" + b.logs()
    }

    /// The configuration file both instances read.
    static func configurationText(databaseURL: String, _ settings: Settings) -> String {
        """
        {
          "database": {"url": "\(databaseURL)"},
          "accessToken": {"keys": [{"kid": "at-1", "secret": "\(accessKey)"}]},
          "refreshToken": {"secret": "\(refreshSecret)", "reuseGraceSeconds": \(settings.reuseGraceSeconds)},
          "password": {"timeCost": 1, "memoryCost": 8192},
          "rateLimit": {
            "loginFailuresPerAccount": \(settings.loginFailuresPerAccount),
            "requestsPerAddressPerMinute": \(settings.requestsPerAddressPerMinute)
          },
          "log": {"format": "json", "level": "info"}
        }
        """
    }
}
