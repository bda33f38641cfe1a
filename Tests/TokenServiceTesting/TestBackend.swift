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

extension TestBackend {
    /// How long a change made through another store (the `tokenvend users` CLI's `AccountAdministration`,
    /// another instance) may take to reach a test server: nothing on SQLite, where the shared commit counter
    /// shows it to the very next request; 200 ms on PostgreSQL, where it arrives by LISTEN/NOTIFY within
    /// milliseconds (docs/operations/postgresql.md, "Several instances").
    public static var otherStorePatience: Duration { current == .postgres ? .milliseconds(200) : .zero }

    /// Reads with `read` until `accepted` holds or ``otherStorePatience`` has passed, and returns the last value:
    /// the answer a server gives once another store's change has reached it.
    public static func afterOtherStoreChange<T>(
        _ read: () async throws -> T, until accepted: (T) -> Bool
    ) async throws -> T {
        let deadline = ContinuousClock.now + otherStorePatience
        var value = try await read()
        while !accepted(value), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
            value = try await read()
        }
        return value
    }
}
