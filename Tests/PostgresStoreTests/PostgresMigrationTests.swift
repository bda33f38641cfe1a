import Foundation
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Migrations: one list, applied once under the advisory lock.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationTests {
    @Test("six instances migrating an empty database at once apply each step exactly once")
    func concurrentMigrations() async throws {
        let database = try await PostgresTestDatabase.make()
        let configuration = database.configuration()
        let reports = try await withThrowingTaskGroup(of: MigrationReport.self) { group in
            for _ in 0..<6 { group.addTask { try await PostgresStore.migrate(configuration: configuration) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let known = Schema.migrations.count
        #expect(reports.flatMap(\.applied).sorted() == Array(1...known))
        #expect(reports.allSatisfy { $0.version == SchemaVersion(found: known, known: known) })
        let rows = try await database.query("SELECT version FROM tokenvend_schema_migrations ORDER BY version")
        #expect(rows.map { $0[0] } == (1...known).map { String($0) })
        // Stores opening at the same moment on the migrated database apply nothing more.
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<4 { group.addTask { try await database.open() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for store in stores {
            #expect(try await store.schemaVersion() == SchemaVersion(found: known, known: known))
            store.close()
        }
        #expect(try await database.query("SELECT count(*) FROM tokenvend_schema_migrations") == [[String(known)]])
        await database.remove()
    }

    @Test("stores opening an empty database together all succeed, and each migration is recorded once")
    func concurrentOpens() async throws {
        let database = try await PostgresTestDatabase.make()
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<5 { group.addTask { try await database.open() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for store in stores { store.close() }
        let rows = try await database.query(
            "SELECT version, count(*) FROM tokenvend_schema_migrations GROUP BY version ORDER BY version")
        #expect(rows.map { $0[1] } == Array(repeating: "1", count: Schema.migrations.count))
        await database.remove()
    }

    @Test("a database migrated by a newer tokenvend is refused")
    func tooNew() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open()
        store.close()
        try await database.query("INSERT INTO tokenvend_schema_migrations VALUES (99, 0)")
        let known = Schema.migrations.count
        await #expect(throws: StoreError.schemaTooNew(found: 99, known: known)) { try await database.open() }
        let report = try? await PostgresStore.migrate(configuration: database.configuration())
        #expect(report == nil)
        await database.remove()
    }

    @Test("a role that may only read and write the tables (no CREATE) opens a current schema and serves")
    func roleWithoutCreate() async throws {
        let database = try await PostgresTestDatabase.make()
        let owner = try await database.open()
        owner.close()
        let role = "r_" + database.schema
        try await database.query("CREATE ROLE \(role) LOGIN")
        try await database.query("GRANT USAGE ON SCHEMA \(database.schema) TO \(role)")
        try await database.query(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(database.schema) TO \(role)")
        do {
            #expect(
                try await database.query("SELECT has_schema_privilege('\(role)', '\(database.schema)', 'CREATE')")
                    == [["f"]])
            var configuration = database.configuration(clock: .database)
            configuration.url = try database.url(user: role)
            for migrate in [true, false] {
                configuration.migrate = migrate
                let store = try await PostgresStore(configuration: configuration)
                let user = try await Fixture.user(store, email: "limited-\(migrate)@example.com")
                let session = try await Fixture.session(store, user)
                let outcome = try await store.sessions.rotate(
                    sessionID: session.id, presentedCounter: 0, now: Date(), grace: .seconds(10),
                    refreshTTL: .seconds(3600))
                guard case .rotated = outcome else {
                    Issue.record("expected .rotated, got \(outcome)")
                    store.close()
                    break
                }
                _ = try await store.rateLimits?.add(1, bucket: "b", key: "k", window: .seconds(60), now: Date())
                #expect(try await store.schemaVersion() == SchemaVersion(found: known, known: known))
                store.close()
            }
        } catch {
            try await Self.drop(role: role, database)
            throw error
        }
        try await Self.drop(role: role, database)
        await database.remove()
    }

    @Test("with migrate off, pending migrations refuse the open with a one-line error naming db migrate")
    func migrateOff() async throws {
        let database = try await PostgresTestDatabase.make()
        var configuration = database.configuration()
        configuration.migrate = false
        do {
            _ = try await PostgresStore(configuration: configuration)
            Issue.record("opened an unmigrated database")
        } catch {
            guard case .misuse(let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(message.contains("tokenvend db migrate") && !message.contains("\n"))
        }
        // Nothing was created: the check only reads.
        #expect(try await database.query("SELECT to_regclass('tokenvend_schema_migrations') IS NULL") == [["t"]])
        _ = try await PostgresStore.migrate(configuration: database.configuration())
        let store = try await PostgresStore(configuration: configuration)
        #expect(try await store.schemaVersion() == SchemaVersion(found: known, known: known))
        store.close()
        await database.remove()
    }

    @Test("a failed migration step releases the advisory lock: the next migration, on any connection, proceeds")
    func failedStepReleasesLock() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(poolSize: 1)
        defer { store.close() }
        let next = Schema.migrations.count + 1
        let failing =
            Schema.migrations + [
                Migration(version: next, sqlite: "SELECT 1", postgres: "CREATE TABLE extra (id INTEGER); SELECT 1 / 0")
            ]
        let working =
            Schema.migrations + [
                Migration(version: next, sqlite: "SELECT 1", postgres: "CREATE TABLE extra (id INTEGER)")
            ]
        await #expect(throws: StoreError.self) {
            try await PostgresMigrator.migrate(pool: store.pool, migrations: failing)
        }
        #expect(try await database.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == [["0"]])
        // Another instance's migration gets the lock.
        let other = try PostgresTestDatabase.pool(database.url)
        defer { other.close() }
        let report = try await PostgresMigrator.migrate(pool: other, migrations: working, lockWait: .seconds(2))
        #expect(report.applied == [next])
        // And the store that failed keeps serving on its pooled connection.
        let user = try await Fixture.user(store)
        #expect(try await store.users.find(byID: user.id) != nil)
        await database.remove()
    }

    @Test("a migration step may run longer than the query timeout")
    func slowStep() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(queryTimeout: .milliseconds(200))
        defer { store.close() }
        let next = Schema.migrations.count + 1
        let slow =
            Schema.migrations + [
                Migration(
                    version: next, sqlite: "SELECT 1", postgres: "CREATE TABLE extra (id INTEGER); SELECT pg_sleep(0.7)"
                )
            ]
        let report = try await PostgresMigrator.migrate(pool: store.pool, migrations: slow)
        #expect(report.applied == [next])
        // The limit is back for ordinary statements afterwards (SET LOCAL ended with the step).
        await #expect(throws: StoreError.unavailable(.timedOut)) {
            _ = try await store.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
                try connection.run(
                    [PostgresStatement(unprepared: "SELECT pg_sleep(0.7)")], deadline: connection.deadline)
            }
        }
        await database.remove()
    }

    var known: Int { Schema.migrations.count }

    static func drop(role: String, _ database: PostgresTestDatabase) async throws {
        try await database.query("DROP OWNED BY \(role)")
        try await database.query("DROP ROLE \(role)")
    }

    @Test("both dialects know the same versions, in order")
    func oneList() {
        #expect(Schema.migrations.map(\.version) == Array(1...Schema.migrations.count))
        #expect(Schema.migrations.allSatisfy { !$0.sqlite.isEmpty && !$0.postgres.isEmpty })
    }
}
