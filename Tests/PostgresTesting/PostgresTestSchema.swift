public import Foundation

/// A fresh schema on the test cluster, made and dropped with `psql`, and the URL that selects it
/// (`options=-csearch_path=…`), so tests never see each other's rows. No test is skipped without PostgreSQL:
/// without `TOKENVEND_TEST_POSTGRES_URL`, `make()` throws a message saying how to run it.
public struct PostgresTestSchema: Sendable {
    /// `<prefix><random>`.
    public let schema: String
    /// The cluster's URL with this schema as the search path.
    public let url: String
    /// The cluster's URL.
    public let base: String

    /// Creates an empty schema named `prefix` followed by random hex.
    public static func make(prefix: String = "t_") throws -> PostgresTestSchema {
        let base = try TestPostgres.clusterURL()
        let schema = prefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try TestPostgres.psql(base, "CREATE SCHEMA \(schema)")
        let separator = base.contains("?") ? "&" : "?"
        return PostgresTestSchema(
            schema: schema, url: base + separator + "options=-csearch_path%3D\(schema)", base: base)
    }

    /// Runs `sql` in this schema; returns psql's unaligned output (`|` between columns, a line per row).
    @discardableResult
    public func query(_ sql: String) throws -> String {
        try TestPostgres.psql(base, "SET search_path TO \(schema); \(sql)")
    }

    /// Drops the schema and everything in it; errors are ignored (the cluster is thrown away anyway).
    public func remove() {
        _ = try? TestPostgres.psql(base, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }

    /// The control script of the cluster (`start`, `stop`, `restart`); see ``TestPostgres/control(_:)``.
    public static func control(_ action: String) throws {
        try TestPostgres.control(action)
    }
}
