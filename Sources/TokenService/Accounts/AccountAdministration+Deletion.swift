public import FoundationEssentials
public import Store

extension AccountAdministration {
    /// What `tokenvend users delete` did: the record kept, and how many provider-token revocations it queued.
    public struct Deletion: Sendable, Equatable {
        /// The record kept in `deleted_accounts` (no personal data).
        public let record: DeletedAccount
        /// The Sign in with Apple revocations queued in the outbox (one per identity holding a sealed refresh
        /// token); a running server's outbox sender sends them.
        public let revocationsQueued: Int
    }

    /// Deletes an account as `DELETE /auth/account` does, by the operator (`AccountDeletionMethod.operator`): the
    /// user, its identities, customer ids and sessions (every instance refuses its tokens at once), with
    /// the provider-token revocations queued in the outbox and only the audit record kept.
    /// - Parameter account: as in `disable(account:)`.
    /// - Throws: `.invalidEmail`, `.notFound` for an unknown (or already deleted) account, `.store`.
    public func delete(account: String, now: Date = Date()) async throws(Failure) -> Deletion {
        let user = try await find(account)
        let sealed: Int
        do {
            sealed = try await backend.identities.identities(userID: user.id)
                .filter { $0.sealedRefreshToken != nil }.count
        } catch {
            throw .store("\(error)")
        }
        do {
            let record = try await users.deleteUser(userID: user.id, method: .operator, now: now)
            return Deletion(record: record, revocationsQueued: sealed)
        } catch .notFound {
            throw .notFound
        } catch {
            throw .store("\(error)")
        }
    }
}
