import Dispatch
public import Logging
public import PostgresStore
import SQLiteStore
public import Store

/// Opens the store a configuration names: the one place that picks the backend.
///
/// ```swift
/// let backend = try await StoreOpener.open(configuration)   // SQLiteStore or PostgresStore
/// defer { backend.close() }
/// ```
public enum StoreOpener {
    /// Opens (creating and migrating when new) the configured store: `PostgresStore` when `database.url` is
    /// set (connecting, and applying pending migrations under the advisory lock), else `SQLiteStore`.
    /// - Throws: `StoreError` as the backend's opener throws it (`.unavailable(.unreachable)` when PostgreSQL
    ///   cannot be reached; messages never contain the URL's password).
    /// - Parameter logger: where a PostgreSQL store logs why connections fail (a warning naming the class,
    ///   e.g. "authentication failed", and the redacted URL; at most once per class a minute). Default: nowhere.
    public static func open(
        _ configuration: TokenServiceConfiguration, logger: Logger? = nil
    ) async throws(StoreError) -> any StoreBackend {
        if let postgres = postgresConfiguration(configuration) {
            var log: (@Sendable (String) -> Void)?
            if let logger {
                log = { @Sendable (line: String) in logger.warning("\(line)") }
            }
            return try await PostgresStore(configuration: postgres, connectionFailureLog: log)
        }
        return try await openSQLite(configuration.database)
    }

    /// The PostgreSQL store's configuration (`database.url` and the pool keys), or nil for SQLite.
    public static func postgresConfiguration(_ configuration: TokenServiceConfiguration) -> PostgresStore.Configuration?
    {
        configuration.postgres.url.isEmpty ? nil : configuration.postgres
    }

    /// Opens a SQLite store on a Dispatch thread: opening and migrating block, and must not hold a thread of the
    /// cooperative pool.
    static func openSQLite(_ database: Database.Configuration) async throws(StoreError) -> SQLiteStore {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<SQLiteStore, StoreError>, Never>) in
            DispatchQueue.global().async {
                do throws(StoreError) {
                    continuation.resume(returning: .success(try SQLiteStore(configuration: database)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
