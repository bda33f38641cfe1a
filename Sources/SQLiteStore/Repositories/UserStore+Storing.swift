public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// The SQLite user store behind the backend-neutral `UserStoring`; the other operations are in
// `UserStore+Async.swift`.
extension UserStore: UserStoring {
    /// See the blocking `markEmailVerified(email:now:)`.
    public func markEmailVerified(email: String, now: Date = Date()) async throws(StoreError) {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.markEmailVerified(email: email, now: now, connection)
        }
    }
}
