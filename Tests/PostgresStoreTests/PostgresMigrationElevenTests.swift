import Foundation
import SQLiteStore
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Migration 11 on PostgreSQL (DPoP, issue 35): `sessions.dpop_jkt` (existing sessions unbound) and the shared
/// `dpop_proofs`; the status cache keeps the binding; `db copy` carries it and leaves the proof ids behind.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationElevenTests {
    static let thumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"

    @Test("a version-10 database migrates to 11: sessions gain dpop_jkt (existing ones unbound), dpop_proofs appears")
    func upgrades() async throws {
        try await PostgresTestDatabase.with { database in
            let pool = try PostgresTestDatabase.pool(database.url)
            defer { pool.close() }
            _ = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(10)))
            for row in PostgresMigrationTenTests.rows { try await database.query(row) }
            let report = try await PostgresMigrator.migrate(
                pool: pool, migrations: Array(Schema.migrations.prefix(11)))
            #expect(report.applied == [11])
            #expect(
                try await database.query(
                    """
                    SELECT table_name, string_agg(column_name || ':' || data_type || ':' || is_nullable, ','
                        ORDER BY ordinal_position)
                    FROM information_schema.columns
                    WHERE table_schema = current_schema() AND (table_name = 'dpop_proofs'
                        OR (table_name = 'sessions' AND column_name = 'dpop_jkt'))
                    GROUP BY table_name ORDER BY table_name
                    """)
                    == [
                        ["dpop_proofs", "hash:text:NO,expires_at:bigint:NO"], ["sessions", "dpop_jkt:text:YES"],
                    ])
            #expect(
                try await database.query(
                    """
                    SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes
                    WHERE schemaname = current_schema() AND tablename = 'dpop_proofs'
                    """) == [["dpop_proofs_by_expiry,dpop_proofs_pkey"]])
            let store = try await database.open()
            defer { store.close() }
            // Opening migrates on: 11, and any later step on top.
            let version = Schema.migrations.count
            #expect(try await store.schemaVersion() == SchemaVersion(found: version, known: version))
            // The version-10 session is there, unbound, and still rotates.
            let old = try #require(try await store.sessions.find(sessionID: "s-1"))
            #expect(old.dpopThumbprint == nil)
            let status = try #require(try await store.sessions.status(sessionID: "s-1"))
            #expect(status.dpopThumbprint == nil && status.userID == "u-1")
            let rotated = try await store.sessions.rotate(
                sessionID: "s-1", presentedCounter: 0, now: Fixture.epoch, grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
            guard case .rotated(let session, counter: 1) = rotated else {
                Issue.record("expected a rotation, got \(rotated)")
                return
            }
            #expect(session.dpopThumbprint == nil)
            // The new column and table work.
            let bound = try await store.sessions.create(
                userID: "u-1", userAgent: nil, ip: nil, now: Fixture.epoch, refreshTTL: Fixture.ttl,
                maxLifetime: Fixture.cap, maxPerUser: 10, dpopThumbprint: Self.thumbprint
            ).session
            #expect(try await store.sessions.find(sessionID: bound.id)?.dpopThumbprint == Self.thumbprint)
            let proofs = try #require(store.dpopProofs)
            #expect(try await proofs.recordProof(hash: "p", expiresAt: Fixture.at(60), now: Fixture.epoch))
            #expect(try await !proofs.recordProof(hash: "p", expiresAt: Fixture.at(60), now: Fixture.epoch))
        }
    }

    @Test("the status cache keeps the binding: the immediate reads answer the thumbprint after a read")
    func statusCacheKeepsBinding() async throws {
        try await PostgresTestDatabase.with { database in
            let store = try await database.open(statusCacheLifetime: .seconds(60))
            defer { store.close() }
            #expect(await PostgresStatusCacheTests.listening(store))
            let user = try await Fixture.user(store)
            let bound = try await Fixture.session(store, user, dpopThumbprint: Self.thumbprint)
            let unbound = try await Fixture.session(store, user, at: 1)
            for session in [bound, unbound] {
                #expect(
                    try await store.sessions.status(sessionID: session.id)?.dpopThumbprint == session.dpopThumbprint)
                guard case .value(let kept) = try store.sessions.immediateStatus(sessionID: session.id) else {
                    Issue.record("the status was not kept")
                    return
                }
                #expect(kept?.dpopThumbprint == session.dpopThumbprint && kept?.userID == user.id)
                let read = try await store.sessions.statusAndCustomerIDs(
                    sessionID: session.id, userID: user.id, emailAsRegistered: false)
                #expect(read.status?.dpopThumbprint == session.dpopThumbprint)
                guard
                    case .value(let keptRead) = try store.sessions.immediateStatusAndCustomerIDs(
                        sessionID: session.id, userID: user.id, emailAsRegistered: false)
                else {
                    Issue.record("the status and ids were not kept")
                    return
                }
                #expect(keptRead == read)
            }
            #expect(bound.dpopThumbprint == Self.thumbprint && unbound.dpopThumbprint == nil)
        }
    }

    @Test("with the database's clock a proof record expires by that clock, whatever the caller's time")
    func databaseClock() async throws {
        try await PostgresTestDatabase.with { database in
            let store = try await database.open(clock: .database)
            defer { store.close() }
            let proofs = try #require(store.dpopProofs)
            let expiry = Date().addingTimeInterval(300)
            // The caller's `now` is far past the expiry (and then far before it): the database decides.
            #expect(try await proofs.recordProof(hash: "p", expiresAt: expiry, now: Fixture.at(86_400 * 365 * 50)))
            #expect(try await !proofs.recordProof(hash: "p", expiresAt: expiry, now: Fixture.at(86_400 * 365 * 50)))
            #expect(try await proofs.pruneProofs(expiredBy: Fixture.at(86_400 * 365 * 50)) == 0)
            let past = Date().addingTimeInterval(-1)
            #expect(try await proofs.recordProof(hash: "q", expiresAt: past, now: Date(timeIntervalSince1970: 0)))
            #expect(try await proofs.recordProof(hash: "q", expiresAt: expiry, now: Date(timeIntervalSince1970: 0)))
            #expect(try await proofs.recordProof(hash: "r", expiresAt: past, now: Date(timeIntervalSince1970: 0)))
            #expect(try await proofs.pruneProofs(expiredBy: Date(timeIntervalSince1970: 0)) == 1)
        }
    }

    @Test("db copy carries each session's binding, never unbinds a bound target session, and copies no proof ids")
    func copyCarriesBinding() async throws {
        try await PostgresTestDatabase.withSQLiteSource { sqlite in
            let ada = try await Fixture.user(sqlite)
            let bound = try await Fixture.session(sqlite, ada, dpopThumbprint: Self.thumbprint)
            let unbound = try await Fixture.session(sqlite, ada, at: 1)
            let snapshot = try await sqlite.snapshot(now: Fixture.at(2))
            #expect(snapshot.sessions == [bound, unbound])
            try await PostgresTestDatabase.with { database in
                let target = try await database.open()
                defer { target.close() }
                let proofs = try #require(target.dpopProofs)
                #expect(try await proofs.recordProof(hash: "p", expiresAt: Fixture.at(60), now: Fixture.epoch))
                let report = try await target.copy(from: snapshot, replacing: false)
                #expect(report.sessions == 2)
                #expect(try await target.sessions.find(sessionID: bound.id) == bound)
                #expect(try await target.sessions.find(sessionID: unbound.id) == unbound)
                #expect(try await target.sessions.status(sessionID: bound.id)?.dpopThumbprint == Self.thumbprint)
                // A snapshot in which the session lost its binding does not unbind the target's.
                var unbinding = snapshot
                unbinding.sessions[0].dpopThumbprint = nil
                _ = try await target.copy(from: unbinding, replacing: false)
                #expect(try await target.sessions.find(sessionID: bound.id)?.dpopThumbprint == Self.thumbprint)
                // The proof ids are the target's own: a copy leaves them alone.
                #expect(try await !proofs.recordProof(hash: "p", expiresAt: Fixture.at(60), now: Fixture.epoch))
                _ = try await target.copy(from: snapshot, replacing: true)
                #expect(
                    try await target.sessions.liveSessions(userID: ada.id, now: Fixture.at(2), limit: 10, after: nil)
                        .map(\.dpopThumbprint) == [nil, Self.thumbprint])
            }
        }
    }
}
