import Foundation
import Store
import Testing

@testable import PostgresStore

/// A fresh schema on the test cluster (`scripts/with-postgres.sh` exports its URL), selected through the URL's
/// `options=-csearch_path=…`, so tests never see each other's rows. Dropped by `remove()`.
struct PostgresTestDatabase {
    /// The cluster's URL, or a failure that says how to get one. No test is skipped without PostgreSQL.
    static func baseURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["TOKENVEND_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw MissingPostgres()
        }
        return url
    }

    struct MissingPostgres: Error, CustomStringConvertible {
        var description: String {
            "TOKENVEND_TEST_POSTGRES_URL is not set: run the PostgreSQL tests through `make test` or "
                + "`scripts/with-postgres.sh swift test --skip-build --no-parallel`"
        }
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

/// A store of either backend for the contract suite, with its cleanup.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh, empty store of this backend (the caller's clock) and removes it afterwards.
    func with(_ body: (any StoreBackend) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-pg-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("t.sqlite").path))
            defer { store.close() }
            try await body(store)
        case .postgres:
            let database = try await PostgresTestDatabase.make()
            do {
                let store = try await database.open()
                do {
                    try await body(store)
                } catch {
                    store.close()
                    throw error
                }
                store.close()
            } catch {
                await database.remove()
                throw error
            }
            await database.remove()
        }
    }
}

enum Fixture {
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)
    static let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g"
    static let ttl = Duration.seconds(100)
    static let cap = Duration.seconds(1000)
    static let grace = Duration.seconds(10)

    static func at(_ seconds: Double) -> Date { epoch.addingTimeInterval(seconds) }

    /// A user created at the epoch.
    static func user(_ store: any StoreBackend, email: String = "ada@example.com") async throws -> User {
        try await store.users.create(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: hash, role: "user", tenantID: nil,
            emailVerifiedAt: nil, now: epoch)
    }

    /// A session of `user` created `seconds` after the epoch.
    static func session(
        _ store: any StoreBackend, _ user: User, at seconds: Double = 0, maxPerUser: Int = 100
    ) async throws -> Session {
        try await store.sessions.create(
            userID: user.id, userAgent: "ua", ip: "::1", now: at(seconds), refreshTTL: ttl, maxLifetime: cap,
            maxPerUser: maxPerUser
        ).session
    }
}
