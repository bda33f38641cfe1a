import Foundation
import PostgresStore
import PostgresTesting
import SQLiteStore
public import Store
public import Testing

/// A store of either backend for the contract suites, with its cleanup.
///
/// `allCases` is SQLite alone, plus PostgreSQL when a test cluster is there (`TOKENVEND_TEST_POSTGRES_URL`, set by
/// `scripts/with-postgres.sh` and so by `make test`): the SQLite half runs anywhere, the PostgreSQL half wherever
/// a cluster is.
public enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    /// SQLite, and PostgreSQL when the test cluster's URL is set.
    public static var allCases: [Backend] { TestPostgres.isConfigured ? [.sqlite, .postgres] : [.sqlite] }

    public var testDescription: String { rawValue }

    /// Runs `body` with a fresh, empty store of this backend (the caller's clock) and removes it afterwards.
    public func with(_ body: (any StoreBackend) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-pg-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("t.sqlite").path))
            defer { store.close() }
            try await body(store)
        case .postgres:
            let schema = try PostgresTestSchema.make()
            defer { schema.remove() }
            let store = try await PostgresStore(
                configuration: PostgresStore.Configuration(
                    url: schema.url, poolSize: 4, queryTimeout: .seconds(5), lockTimeout: .seconds(2), clock: .caller,
                    statusCacheLifetime: .seconds(1)))
            defer { store.close() }
            try await body(store)
        }
    }
}
