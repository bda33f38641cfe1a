public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The throw-away PostgreSQL cluster of `scripts/with-postgres.sh` (`TOKENVEND_TEST_POSTGRES_URL`,
/// `TOKENVEND_TEST_POSTGRES_CTL`), reached with `psql`: each test makes its own database or schema on it
/// (``PostgresTestSchema``). The one copy of these helpers for every test target.
public enum TestPostgres {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// Whether a test cluster's URL is set (`scripts/with-postgres.sh`, `make test`).
    public static var isConfigured: Bool {
        !(ProcessInfo.processInfo.environment["TOKENVEND_TEST_POSTGRES_URL"] ?? "").isEmpty
    }

    /// The cluster's URL; without it the test fails (never skips) saying how to provide one.
    public static func clusterURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["TOKENVEND_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw Failure(
                description: "TOKENVEND_TEST_POSTGRES_URL is not set: run the PostgreSQL tests through `make test` "
                    + "or `scripts/with-postgres.sh swift test --skip-build --no-parallel --filter …`")
        }
        return url
    }

    /// A new, empty database `t_<random>` on the cluster; returns its name.
    public static func createDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        _ = try psql(try clusterURL(), "CREATE DATABASE \(name)")
        return name
    }

    /// Drops a database made by ``createDatabase()``, ending its connections.
    public static func dropDatabase(_ name: String) {
        _ = try? psql(try clusterURL(), "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// The cluster URL with `database` as its path and, when given, `password` as the user's password (the test
    /// cluster trusts local connections, so a password there is never checked: it lets tests look for leaks).
    public static func url(database: String, password: String? = nil) throws -> String {
        guard var components = URLComponents(string: try clusterURL()) else {
            throw Failure(description: "TOKENVEND_TEST_POSTGRES_URL is not a URL")
        }
        components.path = "/" + database
        if let password { components.password = password }
        guard let text = components.string else { throw Failure(description: "cannot build a database URL") }
        return text
    }

    /// Runs `sql` with `psql` on the database of `url`; returns its unaligned, tuples-only output, rows by line.
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "psql \(sql.prefix(80)) failed (\(process.terminationStatus)): "
                    + String(decoding: message, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `$TOKENVEND_TEST_POSTGRES_CTL action` (`start`, `stop`, `restart`) and waits for it, with
    /// `posix_spawn` and `waitpid`: Foundation's `Process.waitUntilExit()` never returns for `start`, whose
    /// script leaves the PostgreSQL server running behind it.
    public static func control(_ action: String) throws {
        guard let ctl = ProcessInfo.processInfo.environment["TOKENVEND_TEST_POSTGRES_CTL"], !ctl.isEmpty else {
            throw Failure(
                description: "TOKENVEND_TEST_POSTGRES_CTL is not set: run this test through `make test` or "
                    + "`scripts/with-postgres.sh`")
        }
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(ctl), strdup(action), nil]
        defer { arguments.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, ctl, nil, nil, arguments, environ)
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(ctl): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw Failure(description: "\(ctl) \(action) failed (wait status \(status))") }
    }
}
