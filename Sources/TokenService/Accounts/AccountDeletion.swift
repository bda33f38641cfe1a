import FoundationEssentials
import Logging
import Store

/// Deletes accounts for every path (self-service, email code, operator through the store directly, Apple's
/// notification): store.deleteUser, then wakes the outbox sender (revocation jobs), counts
/// `tokenvend_account_deletions_total{method}`, logs `account deleted` with user id and method (never the email).
///
/// The store does the deletion in one transaction (`UserStoring.deleteUser(userID:method:now:)`): the user row and
/// everything that names it, every session (the end reaches every instance at once, so the user's access tokens
/// get 401 on their next request and refresh tokens `invalid_grant`), pending mail to the account's address, and
/// one queued revocation job per sealed provider refresh token; it keeps only the `DeletedAccount` record.
struct AccountDeletion: Sendable {
    let users: any UserStoring
    let metrics: ServiceMetrics
    let logger: Logger
    /// Wakes this instance's outbox sender, so that the revocation jobs the deletion queued run at once.
    let wake: @Sendable () -> Void
    let now: @Sendable () -> Date

    /// Deletes the account of `userID` and returns the record kept.
    /// - Throws: `.notFound` when there is no such account (deleted already, or never was); 503 `unavailable`
    ///   when the store cannot take the write or fails otherwise (logged; the account is then unchanged, since
    ///   the deletion is one transaction).
    func delete(userID: String, method: AccountDeletionMethod) async throws(ServiceError) -> DeletedAccount {
        let record: DeletedAccount
        do {
            record = try await users.deleteUser(userID: userID, method: method, now: now())
        } catch .notFound {
            throw .notFound
        } catch {
            if let unavailable = StoreFailure.unavailable(
                error, message: "The database is unavailable; retry later.", default: 5)
            {
                throw unavailable
            }
            logger.error(
                "account deletion failed",
                metadata: ["user.id": "\(userID)", "deletion.method": "\(method.rawValue)", "error": "\(error)"])
            throw .unavailable("The account could not be deleted; retry later.", retryAfter: 5)
        }
        wake()
        metrics.accountDeletions.increment(method)
        logger.notice(
            "account deleted", metadata: ["user.id": "\(userID)", "deletion.method": "\(method.rawValue)"])
        return record
    }
}
