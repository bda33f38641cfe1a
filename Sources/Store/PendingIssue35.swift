#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// Temporary defaults while issue 35's store work is on its branch: removed by that branch.
extension SessionStoring {
    public func create(
        userID: String, userAgent: String?, ip: String?, now: Date, refreshTTL: Duration, maxLifetime: Duration,
        maxPerUser: Int, dpopThumbprint: String?
    ) async throws(StoreError) -> (session: Session, revoked: Int) {
        guard dpopThumbprint == nil else { throw .misuse("PendingIssue35: sessions cannot be bound yet") }
        return try await create(
            userID: userID, userAgent: userAgent, ip: ip, now: now, refreshTTL: refreshTTL, maxLifetime: maxLifetime,
            maxPerUser: maxPerUser)
    }
}

extension StoreBackend {
    public var dpopProofs: (any DPoPProofStoring)? { nil }
}
