import Foundation
import SQLiteStore
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Migration 9 on PostgreSQL: `email_outbox` renamed `outbox` with its rows, index and constraints;
/// `deleted_accounts`; the identities' `refresh_token` and `email_forwarding`. `db copy` carries the records and the
/// new columns and leaves the outbox (pending revocations too) behind.
@Suite(.timeLimit(.minutes(1))) struct PostgresMigrationNineTests {
    /// A user, its identity and two outbox rows (one given up), one statement each.
    static let rows = [
        """
        INSERT INTO users (id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at,
            email_verified_by)
        VALUES ('u-1', 'ada@example.com', '$argon2id$a', 'user', NULL, NULL, 1, 2, 'operator')
        """,
        "INSERT INTO identities (provider, subject, user_id, email, created_at) VALUES ('apple', 'sub-1', 'u-1', NULL, 3)",
        """
        INSERT INTO email_outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at)
        VALUES ('m-1', 'verification', 'ada@example.com', '\\x00010203', 0, 5, 5)
        """,
        """
        INSERT INTO email_outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at, failed_at, last_error)
        VALUES ('m-2', 'password_reset', 'bob@example.com', NULL, 3, 6, 7, 8, '550 no such user')
        """,
    ]

    @Test("a version-8 database migrates to 9: the outbox renamed with its rows, the new table and columns")
    func upgrades() async throws {
        try await PostgresTestDatabase.with { database in
            let pool = try PostgresTestDatabase.pool(database.url)
            defer { pool.close() }
            _ = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(8)))
            for row in Self.rows { try await database.query(row) }
            let report = try await PostgresMigrator.migrate(pool: pool, migrations: Array(Schema.migrations.prefix(9)))
            #expect(report.applied == [9])
            #expect(
                try await database.query(
                    """
                    SELECT table_name, string_agg(column_name || ':' || data_type, ',' ORDER BY ordinal_position)
                    FROM information_schema.columns
                    WHERE table_schema = current_schema()
                        AND table_name IN ('email_outbox', 'outbox', 'deleted_accounts', 'identities')
                    GROUP BY table_name ORDER BY table_name
                    """)
                    == [
                        ["deleted_accounts", "user_id:text,deleted_at:bigint,method:text"],
                        [
                            "identities",
                            "provider:text,subject:text,user_id:text,email:text,created_at:bigint,refresh_token:bytea,"
                                + "email_forwarding:boolean",
                        ],
                        [
                            "outbox",
                            "id:text,kind:text,recipient:text,body:bytea,attempts:bigint,created_at:bigint,"
                                + "next_attempt_at:bigint,claimed_by:text,claimed_until:bigint,failed_at:bigint,"
                                + "last_error:text",
                        ],
                    ])
            #expect(
                try await database.query(
                    """
                    SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes
                    WHERE schemaname = current_schema() AND tablename = 'outbox'
                    """) == [["outbox_by_due,outbox_pkey"]])
            #expect(
                try await database.query(
                    """
                    SELECT string_agg(conname, ',' ORDER BY conname) FROM pg_constraint
                    WHERE conrelid = 'outbox'::regclass
                    """) == [["outbox_attempts_check,outbox_pkey"]])
            let store = try await database.open()
            defer { store.close() }
            let rows = try await store.email.listOutbox()
            #expect(rows.map(\.id) == ["m-1", "m-2"])
            #expect(rows.last?.failedAt == Date(storeMilliseconds: 8) && rows.last?.lastError == "550 no such user")
            #expect(try await store.email.pendingOutboxCount() == 1)
            let claimed = try await store.email.claimOutbox(
                owner: "o", limit: 5, lease: .seconds(9), now: Fixture.epoch)
            #expect(claimed.map(\.body) == [[0, 1, 2, 3]])
            let identity = try #require(try await store.identities.identities(userID: "u-1").first)
            #expect(identity.sealedRefreshToken == nil && identity.emailForwarding == nil)
            #expect(
                try await store.identities.setSealedRefreshToken(
                    provider: "apple", subject: "sub-1", userID: "u-1", sealed: [5, 6]))
            let record = try await store.users.deleteUser(userID: "u-1", method: .operator, now: Fixture.epoch)
            #expect(try await store.users.deletedAccounts() == [record])
            #expect(
                try await store.email.listOutbox().map(\.kind)
                    == ["password_reset", OutboxJobKind.providerTokenRevocation])
        }
    }

    @Test(
        "db copy carries deleted-account records, sealed tokens and forwarding; the outbox and its revocations stay")
    func copyCarriesTheNewRows() async throws {
        try await PostgresTestDatabase.withSQLiteSource { sqlite in
            let ada = try await Fixture.user(sqlite)
            let bob = try await Fixture.user(sqlite, email: "bob@example.com")
            for (user, subject) in [(ada, "a"), (bob, "b")] {
                try await sqlite.identities.link(
                    provider: "apple", subject: subject, userID: user.id, email: nil, now: Fixture.at(1))
                _ = try await sqlite.identities.setSealedRefreshToken(
                    provider: "apple", subject: subject, userID: user.id, sealed: [0, 255, UInt8(subject.count)])
            }
            _ = try await sqlite.identities.setEmailForwarding(provider: "apple", subject: "a", forwards: false)
            let deleted = try await sqlite.users.deleteUser(userID: bob.id, method: .emailCode, now: Fixture.at(9))
            #expect(try await sqlite.email.listOutbox().count == 1, "bob's revocation, pending on the source")
            let snapshot = try await sqlite.snapshot()
            #expect(snapshot.deletedAccounts == [deleted])
            try await PostgresTestDatabase.with { database in
                let target = try await database.open()
                defer { target.close() }
                let report = try await target.copy(from: snapshot, replacing: false)
                #expect(report == CopyReport(users: 1, customerIDs: 0, sessions: 0, identities: 1, deletedAccounts: 1))
                #expect(try await target.copy(from: snapshot, replacing: false) == report, "idempotent")
                #expect(
                    try await target.identities.identities(userID: ada.id)
                        == (try await sqlite.identities.identities(userID: ada.id)))
                let identity = try #require(try await target.identities.identities(userID: ada.id).first)
                #expect(identity.sealedRefreshToken == [0, 255, 1] && identity.emailForwarding == false)
                #expect(try await target.users.deletedAccounts() == [deleted])
                #expect(try await target.email.listOutbox().isEmpty, "pending revocations are not copied")
                // A replacing copy keeps the target's own records.
                let own = try await target.users.deleteUser(userID: ada.id, method: .operator, now: Fixture.at(20))
                _ = try await target.copy(from: snapshot, replacing: true)
                #expect(try await target.users.deletedAccounts() == [deleted, own])
            }
        }
    }
}
