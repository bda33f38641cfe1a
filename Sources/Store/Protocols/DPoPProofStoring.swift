#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The DPoP proofs (RFC 9449 §11.1) accepted within their window, on a store shared by several instances
/// (`PostgresDPoPProofStore`): a proof replayed to another instance is refused there too. A store for one instance
/// (SQLite) has none; the service keeps the ids in memory instead (`StoreBackend.dpopProofs` is nil).
///
/// Every method suspends; none blocks a thread of the cooperative pool.
public protocol DPoPProofStoring: Sendable {
    /// Records a proof by `hash` (lowercase hex SHA-256 of the key's thumbprint, `.`, and the proof's `jti`) until
    /// `expiresAt`, in one statement.
    /// - Returns: true the first time; false when an unexpired record with that hash exists (a replay).
    /// - Throws: `.unavailable`.
    func recordProof(hash: String, expiresAt: Date, now: Date) async throws(StoreError) -> Bool

    /// Deletes the records expired at `now` (the session purger calls it).
    /// - Returns: how many were deleted.
    /// - Throws: `.unavailable`.
    @discardableResult
    func pruneProofs(expiredBy now: Date) async throws(StoreError) -> Int
}
