public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The DPoP proofs accepted within their window (`dpop_proofs`), shared by every instance of the deployment: a
/// proof replayed to another instance is refused there too (RFC 9449 §11.1).
///
/// A decision is one row-changing statement: an `INSERT` that, on a conflicting hash, takes the row over only when
/// its record expired. Of two instances recording one proof at once, one inserts it; the other waits for that
/// commit on the primary key, then finds an unexpired row and changes nothing. None of these writes changes a
/// session's status, so the status caches stay.
public struct PostgresDPoPProofStore: DPoPProofStoring {
    let context: PostgresContext

    init(context: PostgresContext) {
        self.context = context
    }

    public func recordProof(hash: String, expiresAt: Date, now: Date) async throws(StoreError) -> Bool {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "dpop.record",
                """
                INSERT INTO dpop_proofs (hash, expires_at) VALUES ($1, $2::bigint)
                ON CONFLICT (hash) DO UPDATE SET expires_at = EXCLUDED.expires_at
                WHERE dpop_proofs.expires_at <= \(PostgresContext.now(3))
                """, [hash, String(expiresAt.storeMilliseconds), context.time(now)])
        ])
        return rows[0].affected == 1
    }

    @discardableResult
    public func pruneProofs(expiredBy now: Date) async throws(StoreError) -> Int {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "dpop.prune", "DELETE FROM dpop_proofs WHERE expires_at <= \(PostgresContext.now(1))",
                [context.time(now)])
        ])
        return rows[0].affected
    }
}
