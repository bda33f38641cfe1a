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
