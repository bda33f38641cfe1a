public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Identities and the ID-token replay guard in PostgreSQL, with the results and errors of `IdentityStore`
/// (SQLite). The replay table is shared by every instance of the deployment.
///
/// None of these writes changes a session's kept status, so they leave the status caches alone.
public struct PostgresIdentityStore: IdentityStoring {
    let context: PostgresContext

    init(context: PostgresContext) {
        self.context = context
    }

    /// The class of the transaction-level advisory locks `createUser` and `link` take per (provider, subject)
    /// ("idnt"); the two-key lock space never meets the migrator's one-key lock.
    static let lockClass: Int32 = 0x6964_6e74

    /// Takes the advisory lock of (provider, subject) `$1`, `$2` until the transaction ends.
    static func lock(_ name: String, provider: String, subject: String) -> PostgresStatement {
        PostgresStatement(
            name, "SELECT pg_advisory_xact_lock(\(lockClass), hashtext($1 || chr(10) || $2))", [provider, subject])
    }

    /// The columns an identity is created with (the provider's token and forwarding come later).
    static let columns = "provider, subject, user_id, email, created_at"
    /// The columns `identity(_:)` reads (the sealed token as hex, `Hex`: the pipeline speaks text).
    static let readColumns = "\(columns), encode(refresh_token, 'hex'), email_forwarding"

    public func user(provider: String, subject: String) async throws(StoreError) -> User? {
        let rows = try await context.read([
            PostgresStatement(
                "identities.user",
                """
                SELECT \(PostgresUserStore.columns) FROM users
                WHERE id = (SELECT user_id FROM identities WHERE provider = $1 AND subject = $2)
                """, [provider, subject])
        ])
        return try rows[0].first.map(PostgresUserStore.user)
    }

    public func link(
        provider: String, subject: String, userID: String, email: String?, now: Date
    ) async throws(StoreError) {
        // Under createUser's lock: a createUser racing this link waits for it, then finds the link and answers
        // the linked user (`created: false`) instead of making a second user for the identity.
        let statements: [PostgresStatement] = [
            .beginReadCommitted,
            Self.lock("identities.linkLock", provider: provider, subject: subject),
            PostgresStatement(
                "identities.link",
                """
                INSERT INTO identities (\(Self.columns)) VALUES ($1, $2, $3, $4, \(PostgresContext.now(5)))
                """, [provider, subject, userID, email, context.time(now)]),
            .commit,
        ]
        do {
            _ = try await context.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
                try connection.run(statements, deadline: connection.deadline)
            }
        } catch .constraint(.foreignKey) {
            throw .notFound  // the only reference: the user
        }
    }

    public func createUser(
        id: String, email: String?, emailVerifiedAt: Date?, role: String, tenantID: String?, provider: String,
        subject: String, now: Date
    ) async throws(StoreError) -> (user: User, created: Bool) {
        let time = context.time(now)
        // No email, nothing verified.
        let verified = email == nil ? nil : emailVerifiedAt.map { String($0.storeMilliseconds) }
        // Under a lock per (provider, subject), the next statement's snapshot (READ COMMITTED) sees a link that a
        // racing request committed meanwhile, and then creates nothing.
        let statements: [PostgresStatement] = [
            .beginReadCommitted,
            Self.lock("identities.createLock", provider: provider, subject: subject),
            PostgresStatement(
                "identities.create",
                """
                WITH existing AS (SELECT user_id FROM identities WHERE provider = $1 AND subject = $2),
                t AS (SELECT \(PostgresContext.now(7)) AS now),
                u AS (
                    INSERT INTO users (\(PostgresUserStore.columns))
                    SELECT $3, $4, NULL, $5, $9, NULL, t.now, $6::bigint, $8 FROM t
                    WHERE NOT EXISTS (SELECT 1 FROM existing)
                    RETURNING id),
                i AS (
                    INSERT INTO identities (\(Self.columns))
                    SELECT $1, $2, u.id, $4, t.now FROM u, t
                    RETURNING user_id)
                SELECT (SELECT count(*) FROM i)
                """,
                [
                    provider, subject, id, email, role, verified, time,
                    verified == nil ? nil : EmailVerificationSource.provider(provider).storedValue, tenantID,
                ]),
            PostgresStatement(
                "identities.createRead",
                """
                SELECT \(PostgresUserStore.columns) FROM users
                WHERE id = (SELECT user_id FROM identities WHERE provider = $1 AND subject = $2)
                """, [provider, subject]),
            .commit,
        ]
        return try await context.pool.withConnection {
            (connection: PostgresConnection) throws(StoreError) -> (user: User, created: Bool) in
            let rows = try connection.run(statements, deadline: connection.deadline)
            let created = try rows[2].first?.int64(0) ?? 0
            guard let row = rows[3].first else { throw .misuse("identities.create read no user") }
            return (try PostgresUserStore.user(row), created > 0)
        }
    }

    public func identities(userID: String) async throws(StoreError) -> [Identity] {
        let rows = try await context.read([
            PostgresStatement(
                "identities.list",
                """
                SELECT \(Self.readColumns) FROM identities WHERE user_id = $1 ORDER BY created_at, provider, subject
                """,
                [userID])
        ])
        var identities: [Identity] = []
        for row in rows[0].rows { identities.append(try Self.identity(row)) }
        return identities
    }

    public func unlink(provider: String, subject: String, userID: String) async throws(StoreError) -> Bool {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "identities.unlink", "DELETE FROM identities WHERE provider = $1 AND subject = $2 AND user_id = $3",
                [provider, subject, userID])
        ])
        return rows[0].affected > 0
    }

    public func recordUse(tokenHash: String, expiresAt: Date, now: Date) async throws(StoreError) -> Bool {
        // One statement: of two instances inserting the same hash at once, one inserts and the other waits for
        // it and then inserts nothing. A remembered hash is never accepted again: only `pruneUses` forgets it.
        let rows = try await context.writeCounters([
            PostgresStatement(
                "identities.recordUse",
                """
                INSERT INTO id_token_uses (hash, expires_at) VALUES ($1, $2::bigint)
                ON CONFLICT (hash) DO NOTHING
                """, [tokenHash, String(expiresAt.storeMilliseconds)])
        ])
        return rows[0].affected == 1
    }

    /// The server-issued nonces (`auth_nonces`), under the advisory lock class "nonc".
    var nonces: PostgresSingleUseHashes {
        PostgresSingleUseHashes(context: context, table: "auth_nonces", lockClass: 0x6e6f_6e63)
    }

    public func issueNonce(
        hash: String, expiresAt: Date, maxPending: Int, now: Date
    ) async throws(StoreError) -> Bool {
        try await nonces.issue(hash: hash, expiresAt: expiresAt, maxPending: maxPending, now: now)
    }

    public func consumeNonce(hash: String, now: Date) async throws(StoreError) -> Bool {
        try await nonces.consume(hash: hash, now: now)
    }

    @discardableResult
    public func pruneNonces(expiredBy now: Date) async throws(StoreError) -> Int {
        try await nonces.prune(expiredBy: now)
    }

    @discardableResult
    public func pruneUses(expiredBy now: Date) async throws(StoreError) -> Int {
        let margin = String(Int64(IDTokenUses.pruneMargin * 1000))
        let rows = try await context.writeCounters([
            PostgresStatement(
                "identities.pruneUses",
                "DELETE FROM id_token_uses WHERE expires_at <= \(PostgresContext.now(1)) - $2::bigint",
                [context.time(now), margin])
        ])
        return rows[0].affected
    }
}
