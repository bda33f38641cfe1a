import Foundation
import PostgresStore
import PostgresTesting
import SQLiteStore
public import Store

extension Backend {
    /// Runs `body` with two separate stores of this backend on one fresh, empty database, as two instances of a
    /// deployment would open it (SQLite: two `SQLiteStore`s on one file, as the CLI beside the server; PostgreSQL:
    /// two `PostgresStore`s, each with its own pool and listener), and removes it afterwards.
    /// - Parameter statusCacheLifetime: how long each store keeps a session status (PostgreSQL). Default: 60 s,
    ///   so that only a notification ends a kept answer within a test.
    public func withTwo(
        statusCacheLifetime: Duration = .seconds(60),
        _ body: (any StoreBackend, any StoreBackend) async throws -> Void
    ) async throws {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-two-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("t.sqlite").path
            let first = try SQLiteStore(configuration: .init(path: path))
            defer { first.close() }
            let second = try SQLiteStore(configuration: .init(path: path))
            defer { second.close() }
            try await body(first, second)
        case .postgres:
            let schema = try PostgresTestSchema.make()
            defer { schema.remove() }
            let configuration = PostgresStore.Configuration(
                url: schema.url, poolSize: 4, queryTimeout: .seconds(5), lockTimeout: .seconds(2), clock: .caller,
                statusCacheLifetime: statusCacheLifetime)
            let first = try await PostgresStore(configuration: configuration)
            defer { first.close() }
            let second = try await PostgresStore(configuration: configuration)
            defer { second.close() }
            try await body(first, second)
        }
    }
}
