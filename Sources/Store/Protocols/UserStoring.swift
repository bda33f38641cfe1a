#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The user operations the service and the CLI need, on any backend: `UserStore` (SQLite) and
/// `PostgresUserStore` (PostgreSQL) implement it with the same results and errors.
///
/// Every method suspends; none blocks a thread of the cooperative pool.
public protocol UserStoring: Sendable {
    /// Creates a user; see `UserStore.create(id:email:passwordHash:role:tenantID:emailVerifiedAt:now:)`.
    /// - Throws: `.emailTaken`, `.constraint(.primaryKey)`, `.unavailable`.
    @discardableResult
    func create(
        id: String, email: String?, passwordHash: String?, role: String, tenantID: String?, emailVerifiedAt: Date?,
        now: Date
    ) async throws(StoreError) -> User

    /// The user with this normalised email, or nil.
    func find(byEmail email: String) async throws(StoreError) -> User?

    /// The user with this id, or nil.
    func find(byID id: String) async throws(StoreError) -> User?

    /// Every user, by creation time then email.
    func list() async throws(StoreError) -> [User]

    /// Disables the account and revokes all its sessions in one transaction.
    /// - Returns: how many live sessions were revoked.
    /// - Throws: `.notFound` for an unknown email.
    @discardableResult
    func disable(email: String, now: Date) async throws(StoreError) -> Int

    /// Sets (inserts or replaces) one customer id of the user.
    /// - Throws: `.notFound` for an unknown email.
    func setCustomerID(email: String, key: String, value: String) async throws(StoreError)

    /// `disable(email:now:)` for the user `userID` (an account may have no email).
    /// - Throws: `.notFound` for an unknown id.
    @discardableResult
    func disable(userID: String, now: Date) async throws(StoreError) -> Int

    /// `setCustomerID(email:key:value:)` for the user `userID` (an account may have no email).
    /// - Throws: `.notFound` for an unknown id.
    func setCustomerID(userID: String, key: String, value: String) async throws(StoreError)

    /// The user's customer ids; see `UserStore.customerIDs(userID:emailAsRegistered:)`.
    func customerIDs(userID: String, emailAsRegistered: Bool) async throws(StoreError) -> [String: String]

    /// Records that an operator verified the user's email (keeping the first time; the source becomes
    /// `EmailVerificationSource.operator` even when a provider had vouched for it before); idempotent.
    /// - Throws: `.notFound` for an unknown email.
    func markEmailVerified(email: String, now: Date) async throws(StoreError)

    /// Replaces the password hash.
    /// - Throws: `.notFound` for an unknown id.
    func updatePasswordHash(userID: String, hash: String) async throws(StoreError)

    /// Marks the user's email verified by `source` (keeping an earlier verification time; the source becomes
    /// `source`), for the email-code flows; an account without an email stays unverified. Returns the user as
    /// stored afterwards.
    /// - Throws: `.notFound` for an unknown id.
    func markEmailVerified(userID: String, source: EmailVerificationSource, now: Date) async throws(StoreError) -> User

    /// Moves the account to `email` (normalised by the caller), verified now by `EmailVerificationSource.emailCode`
    /// (the user proved it with a code sent there). Returns the user as stored afterwards.
    /// - Throws: `.emailTaken` when another account holds the address, `.notFound` for an unknown id.
    func changeEmail(userID: String, to email: String, now: Date) async throws(StoreError) -> User

    /// Replaces the password hash and revokes every live session of the user except `keeping` (nil: all), in one
    /// transaction, through the same revocation path as `disable(userID:now:)` (other instances and the session
    /// status caches see it at once).
    /// - Returns: how many sessions were revoked.
    /// - Throws: `.notFound` for an unknown id.
    @discardableResult
    func replacePassword(userID: String, hash: String, keeping sessionID: String?, now: Date) async throws(StoreError)
        -> Int

    /// Sets the user's tenant, or clears it with `nil` (`tokenvend users set-tenant`). Access tokens issued
    /// before keep the old `tenantId` until they expire; the next refresh carries the new one.
    /// - Throws: `.notFound` for an unknown id.
    func setTenant(userID: String, tenantID: String?) async throws(StoreError)

    /// Deletes the account (issue 33), in one transaction:
    /// - queues, for each of its identities holding a sealed provider refresh token, one outbox row of kind
    ///   `OutboxJobKind.providerTokenRevocation` (a new random id, `recipient` the provider name, `body` the sealed
    ///   token as stored, due at once), so the revocation survives a restart and never blocks the deletion;
    /// - deletes the email outbox rows addressed to the account's email, pending and given up (nothing more is sent
    ///   to it, and no row keeps the address), and the email codes sent to it or kept under it; on PostgreSQL
    ///   also the rate-limit counters kept under it;
    /// - deletes the user row, and with it (by `ON DELETE CASCADE`) its identities, customer ids, sessions, email
    ///   codes and every other row that names it; the sessions' end reaches every instance at once, as a
    ///   revocation does (PostgreSQL: `pg_notify` on the change feed; SQLite: the commit counter);
    /// - records `DeletedAccount(userID, now, method)` in `deleted_accounts` (no personal data).
    ///
    /// The email can register again afterwards. On SQLite, `secure_delete` is on, so the deleted rows' bytes do
    /// not linger in free pages.
    /// - Returns: the record kept.
    /// - Throws: `.notFound` for an unknown id (deleted already, or never was); of concurrent deletions of one
    ///   account, one succeeds and the others are not found.
    @discardableResult
    func deleteUser(userID: String, method: AccountDeletionMethod, now: Date) async throws(StoreError)
        -> DeletedAccount

    /// The records of deleted accounts, oldest first (for audits and tests).
    func deletedAccounts() async throws(StoreError) -> [DeletedAccount]
}

extension UserStoring {
    /// `create` with the usual defaults: a new lowercase UUID, role `user`, no tenant, unverified email, now.
    @discardableResult
    public func create(
        email: String?, passwordHash: String?, role: String = "user", tenantID: String? = nil,
        emailVerifiedAt: Date? = nil
    ) async throws(StoreError) -> User {
        try await create(
            id: UUID().uuidString.lowercased(), email: email, passwordHash: passwordHash, role: role,
            tenantID: tenantID, emailVerifiedAt: emailVerifiedAt, now: Date())
    }
}
