import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Migration 11 (DPoP, issue 35) adds `sessions.dpop_jkt` on SQLite (the proof ids stay in memory: no table), and
/// changes nothing else: the version-10 sessions stay, unbound.
@Suite struct MigrationElevenTests {
    static let thumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"

    @Test("a version-10 database migrates to 11: sessions gain dpop_jkt, existing ones unbound, new ones bindable")
    func upgrades() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        try temporary.create(atVersion: 10, rows: MigrationTenTests.rows)
        // A snapshot of the file before it is migrated reads its session, unbound.
        let before = try SQLiteStore.snapshot(readingFileAt: temporary.path, now: Fixture.epoch)
        #expect(before.sessions.map(\.id) == ["s-1"] && before.sessions.map(\.dpopThumbprint) == [nil])
        let database = try temporary.open()
        defer { database.close() }
        let (version, columns, tables) = try await database.read {
            (connection: Connection) throws(StoreError) -> (Int, [String], [String]) in
            let columns = try connection.query("SELECT name FROM pragma_table_info('sessions')")
                .map { (row: Row) throws(StoreError) in try row.string(0) }
            let tables = try connection.query("SELECT name FROM sqlite_schema WHERE name LIKE 'dpop%'")
                .map { (row: Row) throws(StoreError) in try row.string(0) }
            return (try Migrator.userVersion(connection), columns, tables)
        }
        #expect(version == Schema.migrations.last?.version)  // 11, and any later step on top
        #expect(columns.last == "dpop_jkt" && tables.isEmpty)
        let store = SQLiteStore(database: database)
        #expect(store.dpopProofs == nil)
        let old = try #require(try await store.sessions.find(sessionID: "s-1"))
        #expect(old.dpopThumbprint == nil && old.userID == "u-1")
        #expect(try await store.sessions.status(sessionID: "s-1")?.dpopThumbprint == nil)
        let rotated = try await store.sessions.rotate(
            sessionID: "s-1", presentedCounter: 0, now: Fixture.epoch, grace: .seconds(10), refreshTTL: .seconds(100))
        guard case .rotated(let session, counter: 1) = rotated else {
            Issue.record("expected a rotation, got \(rotated)")
            return
        }
        #expect(session.dpopThumbprint == nil)
        // A new session is bound, and a snapshot of the migrated file reads the binding.
        let bound = try await store.sessions.create(
            userID: "u-1", userAgent: nil, ip: nil, now: Fixture.epoch, refreshTTL: .seconds(100),
            maxLifetime: .seconds(1000), maxPerUser: 10, dpopThumbprint: Self.thumbprint
        ).session
        #expect(try await store.sessions.find(sessionID: bound.id)?.dpopThumbprint == Self.thumbprint)
        let after = try SQLiteStore.snapshot(readingFileAt: temporary.path, now: Fixture.epoch)
        #expect(after.sessions.map(\.dpopThumbprint) == [nil, Self.thumbprint])
    }
}
