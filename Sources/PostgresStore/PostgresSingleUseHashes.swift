import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A table of single-use, expiring hashes `(hash PRIMARY KEY, expires_at)` in PostgreSQL, with the results of
/// SQLite's `SingleUseHashes`: the server-issued nonces (`auth_nonces`) and the integrity challenges
/// (`integrity_challenges`), shared by every instance. `PostgresIdentityStore` and `PostgresIntegrityStore` both
/// use it.
///
/// The cap holds across the deployment: the count and the insert run under a transaction-level advisory lock of
/// the table's class, so one instance's never interleave with another's. Consumption is one `DELETE`: of two
/// instances consuming one hash at once, one deletes it and the other waits for that commit and finds none.
struct PostgresSingleUseHashes: Sendable {
    let context: PostgresContext
    /// The table's name (a constant of this module, never input); also the prefix of the statements' names.
    let table: String
    /// The class of the advisory lock `issue` takes (four ASCII letters, distinct per table).
    let lockClass: Int32

    /// Stores `hash` until `expiresAt` unless `maxPending` rows are unexpired at `now`; false at the cap or when
    /// the hash is stored already.
    func issue(hash: String, expiresAt: Date, maxPending: Int, now: Date) async throws(StoreError) -> Bool {
        let statements: [PostgresStatement] = [
            .beginReadCommitted,
            PostgresStatement("\(table).lock", "SELECT pg_advisory_xact_lock(\(lockClass), 0)", []),
            PostgresStatement(
                "\(table).issue",
                """
                INSERT INTO \(table) (hash, expires_at)
                SELECT $1, $2::bigint
                WHERE (SELECT count(*) FROM \(table) WHERE expires_at > \(PostgresContext.now(3))) < $4::bigint
                ON CONFLICT (hash) DO NOTHING
                """, [hash, String(expiresAt.storeMilliseconds), context.time(now), String(maxPending)]),
            .commit,
        ]
        return try await context.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            try connection.run(statements, deadline: connection.deadline)[2].affected == 1
        }
    }

    /// Deletes `hash` when it is unexpired at `now`, in one statement: true once per issued hash.
    func consume(hash: String, now: Date) async throws(StoreError) -> Bool {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "\(table).consume",
                "DELETE FROM \(table) WHERE hash = $1 AND expires_at > \(PostgresContext.now(2))",
                [hash, context.time(now)])
        ])
        return rows[0].affected == 1
    }

    /// Deletes the rows expired at `now`; returns how many.
    func prune(expiredBy now: Date) async throws(StoreError) -> Int {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "\(table).prune", "DELETE FROM \(table) WHERE expires_at <= \(PostgresContext.now(1))",
                [context.time(now)])
        ])
        return rows[0].affected
    }
}
