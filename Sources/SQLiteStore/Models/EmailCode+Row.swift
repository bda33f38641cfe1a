import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of `EmailCode`; the PostgreSQL backend reads its own rows.
extension EmailCode {
    /// The columns `init(row:)` reads, in order.
    static let columns = "purpose, subject, hash, user_id, email, attempts, created_at, expires_at"

    init(row: Row) throws(StoreError) {
        guard let purpose = EmailCodePurpose(rawValue: try row.string(0)) else {
            throw .misuse("email_codes.purpose holds an unknown purpose")
        }
        self.init(
            purpose: purpose, subject: try row.string(1), hash: try row.string(2), userID: try row.optionalString(3),
            email: try row.string(4), attempts: Int(try row.int64(5)),
            createdAt: Date(storeMilliseconds: try row.int64(6)), expiresAt: Date(storeMilliseconds: try row.int64(7)))
    }

    /// The values of `columns`, in order.
    var bindings: [SQLValue] {
        [
            .text(purpose.rawValue), .text(subject), .text(hash), SQLValue(userID), .text(email),
            .integer(Int64(attempts)), .integer(createdAt.storeMilliseconds), .integer(expiresAt.storeMilliseconds),
        ]
    }
}
