import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of `User`; the PostgreSQL backend reads its own rows.
extension User {
    /// The columns `init(row:)` reads, in order.
    static let columns =
        "id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at, email_verified_by"

    init(row: Row) throws(StoreError) {
        self.init(
            id: try row.string(0), email: try row.optionalString(1), passwordHash: try row.optionalString(2),
            role: try row.string(3),
            tenantID: try row.optionalString(4),
            disabledAt: try row.optionalInt64(5).map(Date.init(storeMilliseconds:)),
            createdAt: Date(storeMilliseconds: try row.int64(6)),
            emailVerifiedAt: try row.optionalInt64(7).map(Date.init(storeMilliseconds:)),
            emailVerifiedBy: try row.optionalString(8).flatMap(EmailVerificationSource.init(storedValue:)))
    }
}
