// TEMPORARY (issue 33 contracts): default implementations so that main builds until the store helper
// implements these on both backends. The store branch deletes this file.
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension UserStoring {
    public func deleteUser(userID: String, method: AccountDeletionMethod, now: Date) async throws(StoreError)
        -> DeletedAccount
    { throw .misuse("deleteUser is not implemented yet") }

    public func deletedAccounts() async throws(StoreError) -> [DeletedAccount] {
        throw .misuse("deletedAccounts is not implemented yet")
    }
}

extension IdentityStoring {
    public func setSealedRefreshToken(provider: String, subject: String, userID: String, sealed: [UInt8])
        async throws(StoreError) -> Bool
    { throw .misuse("setSealedRefreshToken is not implemented yet") }

    public func setEmailForwarding(provider: String, subject: String, forwards: Bool) async throws(StoreError) -> Bool
    { throw .misuse("setEmailForwarding is not implemented yet") }
}
