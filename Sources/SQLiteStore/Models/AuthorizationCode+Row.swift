import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of `AuthorizationCode`; the PostgreSQL backend reads its own rows.
extension AuthorizationCode {
    init(row: Row) throws(StoreError) {
        self.init(
            codeHash: try row.string(0), userID: try row.string(1), provider: try row.string(2),
            redirectURI: try row.string(3), codeChallenge: try row.string(4), created: try row.int64(5) != 0,
            createdAt: Date(storeMilliseconds: try row.int64(6)), expiresAt: Date(storeMilliseconds: try row.int64(7)))
    }
}
