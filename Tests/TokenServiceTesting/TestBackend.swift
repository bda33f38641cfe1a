import CLibPQ
public import Foundation

/// The store the in-process test servers run on: SQLite (the default), or PostgreSQL when
/// `TOKENVEND_TEST_BACKEND=postgres`, on the throw-away cluster of `scripts/with-postgres.sh`
/// (`TOKENVEND_TEST_POSTGRES_URL`), each server in a schema of its own. `make test` runs the end-to-end suites
/// once on each.
public enum TestBackend: Sendable, Equatable {
    case sqlite
    case postgres

    /// From `TOKENVEND_TEST_BACKEND` (`sqlite` when unset).
    public static let current: TestBackend =
        ProcessInfo.processInfo.environment["TOKENVEND_TEST_BACKEND"] == "postgres" ? .postgres : .sqlite

    /// The access-token key and refresh secret a PostgreSQL server gets unless the test configures its own (a
    /// shared store refuses generated development keys).
    static let accessKeys = #"[{"kid":"test-at","secret":"\#(String(repeating: "k", count: 64))"}]"#
    static let refreshSecret = String(repeating: "r", count: 64)
}

/// A schema of its own on the test cluster for one test server: created on `init`, dropped with everything in it
/// by ``drop()``. The server reaches it through the `search_path` in its URL's `options`, so its tables, and only
/// its tables, are the ones it sees.
public final class TestPostgresSchema: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `s_<random>`.
    public let name: String
    /// The cluster URL with `options=-csearch_path=<name>`.
    public let url: String
    private let clusterURL: String

    /// Creates the schema.
    /// - Throws: ``Failure`` when `TOKENVEND_TEST_POSTGRES_URL` is not set (run through `make test` or
    ///   `scripts/with-postgres.sh`) or the cluster refuses.
    public init() throws {
        guard let cluster = ProcessInfo.processInfo.environment["TOKENVEND_TEST_POSTGRES_URL"], !cluster.isEmpty
        else {
            throw Failure(
                description: "TOKENVEND_TEST_BACKEND=postgres needs TOKENVEND_TEST_POSTGRES_URL: run the tests "
                    + "through `make test` or `scripts/with-postgres.sh`")
        }
        clusterURL = cluster
        name = "s_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(20).lowercased()
        let separator = cluster.contains("?") ? "&" : "?"
        url = cluster + separator + "options=-csearch_path%3D" + name
        try Self.execute("CREATE SCHEMA \(name)", on: cluster)
    }

    /// Drops the schema and everything in it; errors are ignored (the cluster is thrown away anyway).
    public func drop() {
        try? Self.execute("DROP SCHEMA IF EXISTS \(name) CASCADE", on: clusterURL)
    }

    /// Runs one statement on a new connection.
    static func execute(_ sql: String, on url: String) throws {
        guard let connection = PQconnectdb(url) else { throw Failure(description: "libpq: out of memory") }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw Failure(
                description: "cannot connect to the test cluster: " + String(cString: PQerrorMessage(connection)))
        }
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw Failure(description: "\(sql): " + String(cString: PQerrorMessage(connection)))
        }
    }
}
