#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How an account was deleted, as the audit record keeps it (`deleted_accounts.method`).
public enum AccountDeletionMethod: String, Sendable, Hashable, CaseIterable {
    /// `DELETE /auth/account`: the signed-in user, with the password or a recent sign-in.
    case selfService = "self_service"
    /// `POST /auth/account/deletion/confirm` or the page at `GET /account/delete`: a `deletion` code sent to the
    /// account's email.
    case emailCode = "email_code"
    /// `tokenvend users delete`.
    case `operator`
    /// Apple's server-to-server `account-delete` notification, for an account Apple was the only way into.
    case appleNotification = "apple_notification"
}

/// The record kept of a deleted account: no personal data, only who (the former user id), when and how.
public struct DeletedAccount: Sendable, Equatable {
    /// The deleted user's id (a random id, not personal data once the user row is gone).
    public var userID: String
    /// When it was deleted.
    public var deletedAt: Date
    /// How.
    public var method: AccountDeletionMethod

    /// Creates a record.
    public init(userID: String, deletedAt: Date, method: AccountDeletionMethod) {
        self.userID = userID
        self.deletedAt = deletedAt
        self.method = method
    }
}

extension DeletedAccount {
    /// A record as both backends store it: `deleted_at` in milliseconds, `method` its raw value.
    /// - Throws: `.misuse` for a method this version does not know.
    package init(userID: String, deletedAtMilliseconds: Int64, storedMethod: String) throws(StoreError) {
        guard let method = AccountDeletionMethod(rawValue: storedMethod) else {
            throw .misuse("deleted_accounts.method holds an unknown method")
        }
        self.init(userID: userID, deletedAt: Date(storeMilliseconds: deletedAtMilliseconds), method: method)
    }
}
