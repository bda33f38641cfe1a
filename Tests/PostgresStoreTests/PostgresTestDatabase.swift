import Foundation
import PostgresTesting
import SQLiteStore
import Store
import Testing

@testable import PostgresStore

/// A fresh schema on the test cluster (`scripts/with-postgres.sh` exports its URL), selected through the URL's
/// `options=-csearch_path=…`, so tests never see each other's rows. Dropped by `remove()`.
struct PostgresTestDatabase {
    /// The cluster's URL, or a failure that says how to get one. No test is skipped without PostgreSQL.
    static func baseURL() throws -> String {
        try TestPostgres.clusterURL()
    }

    let schema: String
    let url: String
    private let admin: PostgresPool

    /// Creates an empty schema.
    static func make() async throws -> PostgresTestDatabase {
        let base = try baseURL()
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try Self.pool(base)
        _ = try await admin.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(
                [PostgresStatement(unprepared: "CREATE SCHEMA \(schema)")], deadline: connection.deadline)
        }
        let separator = base.contains("?") ? "&" : "?"
        return PostgresTestDatabase(
            schema: schema, url: base + separator + "options=-csearch_path%3D\(schema)", admin: admin)
    }

    static func pool(_ url: String, size: Int = 1) throws -> PostgresPool {
        let configuration = PostgresStore.Configuration(url: url)
        return PostgresPool(
            url: try PostgresURL(url), settings: PostgresConnection.Settings(configuration: configuration), size: size)
    }

    /// This schema's URL with another user name (the test cluster trusts every local login).
    func url(user: String) throws -> String {
        var components = try #require(URLComponents(string: url))
        components.user = user
        return try #require(components.string)
    }

    /// A configuration for this schema; the caller's clock unless told otherwise.
    func configuration(
        clock: PostgresStore.Clock = .caller, poolSize: Int = 4, statusCacheLifetime: Duration = .seconds(1),
        lockTimeout: Duration = .seconds(2), queryTimeout: Duration = .seconds(5)
    ) -> PostgresStore.Configuration {
        PostgresStore.Configuration(
            url: url, poolSize: poolSize, queryTimeout: queryTimeout, lockTimeout: lockTimeout, clock: clock,
            statusCacheLifetime: statusCacheLifetime)
    }

    /// Opens a store on this schema.
    func open(
        clock: PostgresStore.Clock = .caller, poolSize: Int = 4, statusCacheLifetime: Duration = .seconds(1),
        lockTimeout: Duration = .seconds(2), queryTimeout: Duration = .seconds(5)
    ) async throws -> PostgresStore {
        try await PostgresStore(
            configuration: configuration(
                clock: clock, poolSize: poolSize, statusCacheLifetime: statusCacheLifetime, lockTimeout: lockTimeout,
                queryTimeout: queryTimeout))
    }

    /// Runs statements (no parameters) in this schema on the admin connection and returns the first one's rows
    /// as text.
    @discardableResult
    func query(_ sql: String) async throws -> [[String?]] {
        let schema = self.schema
        let rows = try await admin.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(
                [PostgresStatement(unprepared: "SET search_path TO \(schema)"), PostgresStatement(unprepared: sql)],
                deadline: connection.deadline)
        }
        return rows[1].rows.map(\.values)
    }

    /// Drops the schema and everything in it.
    func remove() async {
        let schema = self.schema
        _ = try? await admin.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(
                [PostgresStatement(unprepared: "DROP SCHEMA IF EXISTS \(schema) CASCADE")],
                deadline: connection.deadline)
        }
        admin.close()
    }
}

extension PostgresTestDatabase {
    /// Runs `body` with a fresh schema and drops it afterwards, whether `body` returns or throws.
    static func with(_ body: (PostgresTestDatabase) async throws -> Void) async throws {
        let database = try await make()
        do {
            try await body(database)
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }

    /// Runs `body` with a SQLite store in a fresh temporary folder (a `db copy` source), removed afterwards.
    static func withSQLiteSource(_ body: (SQLiteStore) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-copy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("t.sqlite").path))
        defer { sqlite.close() }
        try await body(sqlite)
    }
}
