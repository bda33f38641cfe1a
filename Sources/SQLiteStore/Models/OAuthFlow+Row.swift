import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The SQLite row reading of `OAuthFlow`; the PostgreSQL backend reads its own rows.
extension OAuthFlow {
    init(row: Row) throws(StoreError) {
        self.init(
            stateHash: try row.string(0), provider: try row.string(1), redirectURI: try row.string(2),
            codeChallenge: try row.string(3), appState: try row.string(4), nonce: try row.string(5),
            codeVerifier: try row.string(6), createdAt: Date(storeMilliseconds: try row.int64(7)),
            expiresAt: Date(storeMilliseconds: try row.int64(8)))
    }
}
