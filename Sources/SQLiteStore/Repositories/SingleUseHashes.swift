import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A table of single-use, expiring hashes `(hash PRIMARY KEY, expires_at)` in SQLite: the server-issued nonces
/// (`auth_nonces`) and the integrity challenges (`integrity_challenges`). Issued under a cap of unexpired rows,
/// consumed once, pruned once expired; `IdentityStore` and `SQLiteIntegrityStore` both use it.
///
/// Every write runs on the database's single writer, so the cap's count and the insert cannot interleave with
/// another request's, and each decision is one row-changing statement.
struct SingleUseHashes: Sendable {
    let database: Database
    /// The table's name (a constant of this module, never input).
    let table: String

    /// Stores `hash` until `expiresAt` unless `maxPending` rows are unexpired at `now`; false at the cap or when
    /// the hash is stored already.
    func issue(hash: String, expiresAt: Date, maxPending: Int, now: Date) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                """
                INSERT INTO \(table) (hash, expires_at)
                SELECT ?1, ?2 WHERE (SELECT count(*) FROM \(table) WHERE expires_at > ?3) < ?4
                ON CONFLICT (hash) DO NOTHING
                """,
                [
                    .text(hash), .integer(expiresAt.storeMilliseconds), .integer(now.storeMilliseconds),
                    .integer(Int64(maxPending)),
                ]) == 1
        }
    }

    /// Deletes `hash` when it is unexpired at `now`, in one statement: true once per issued hash.
    func consume(hash: String, now: Date) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                "DELETE FROM \(table) WHERE hash = ? AND expires_at > ?",
                [.text(hash), .integer(now.storeMilliseconds)]) == 1
        }
    }

    /// Deletes the rows expired at `now`; returns how many.
    func prune(expiredBy now: Date) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute("DELETE FROM \(table) WHERE expires_at <= ?", [.integer(now.storeMilliseconds)])
        }
    }
}
