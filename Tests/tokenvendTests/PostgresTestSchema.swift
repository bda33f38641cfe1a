import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh schema on the test cluster of `scripts/with-postgres.sh`, made and dropped with `psql`, and the URL
/// that selects it (`options=-csearch_path=…`), so tests never see each other's rows. No test is skipped
/// without PostgreSQL: without `TOKENVEND_TEST_POSTGRES_URL`, `make()` throws a message saying how to run it.
struct PostgresTestSchema {
    let schema: String
    /// The cluster's URL with this schema as the search path.
    let url: String
    let base: String

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "TOKENVEND_TEST_POSTGRES_URL is not set: run the PostgreSQL tests through `make test` or "
                + "`scripts/with-postgres.sh swift test --skip-build --no-parallel`"
        }
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// The cluster's base URL, or `Missing`.
    static func baseURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["TOKENVEND_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw Missing()
        }
        return url
    }

    /// Creates an empty schema.
    static func make() throws -> PostgresTestSchema {
        let base = try baseURL()
        let schema = "svc_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try psql(base, "CREATE SCHEMA \(schema)")
        let separator = base.contains("?") ? "&" : "?"
        return PostgresTestSchema(
            schema: schema, url: base + separator + "options=-csearch_path%3D\(schema)", base: base)
    }

    /// Runs `sql` in this schema; returns psql's unaligned output (`|` between columns, a line per row).
    @discardableResult
    func query(_ sql: String) throws -> String {
        try Self.psql(base, "SET search_path TO \(schema); \(sql)")
    }

    /// Drops the schema.
    func remove() {
        _ = try? Self.psql(base, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }

    /// The control script of the cluster (`start`, `stop`, `restart`).
    ///
    /// Spawned with `posix_spawn` and reaped with `waitpid`, not Foundation's `Process`: `pg_ctl start` leaves
    /// the server running with the descriptors it inherited, and `Process.waitUntilExit` then never returns.
    static func control(_ action: String) throws {
        guard let path = ProcessInfo.processInfo.environment["TOKENVEND_TEST_POSTGRES_CTL"] else { throw Missing() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(path), strdup(action), nil]
        defer { arguments.forEach { free($0) } }
        guard posix_spawn(&pid, path, &actions, nil, arguments, environ) == 0 else {
            throw Failed(description: "pgctl \(action) could not start")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else { throw Failed(description: "pgctl \(action) failed (status \(status))") }
    }

    private static func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "psql: " + String(decoding: message, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
