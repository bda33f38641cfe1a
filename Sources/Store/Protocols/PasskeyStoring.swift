#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Passkeys (issue 36) on any backend: the accounts' user handles, the credentials, and the single-use ceremony
/// challenges. `SQLitePasskeyStore` and `PostgresPasskeyStore` implement it with the same results and errors; on
/// PostgreSQL every instance sees the same rows, so a challenge is used once and a counter advances once across
/// all of them.
///
/// Every method suspends; none blocks a thread of the cooperative pool.
public protocol PasskeyStoring: Sendable {
    /// Stores `challenge`, unless `maxPending` unexpired challenges are stored already (counted across every
    /// instance on PostgreSQL).
    /// - Returns: true when stored; false at the cap (nothing stored).
    /// - Throws: `.unavailable`.
    func issueChallenge(_ challenge: PasskeyChallenge, maxPending: Int, now: Date) async throws(StoreError) -> Bool

    /// Consumes the challenge with `hash`: deletes it and returns it when it is stored and unexpired at `now`, in
    /// one statement (of two concurrent calls, on one instance or several, at most one gets it).
    /// - Returns: the challenge; nil for one never issued, used already, or expired.
    /// - Throws: `.unavailable`.
    func consumeChallenge(hash: String, now: Date) async throws(StoreError) -> PasskeyChallenge?

    /// Deletes the challenges expired at `now` (the session purger calls it).
    /// - Returns: how many were deleted.
    /// - Throws: `.unavailable`.
    @discardableResult
    func pruneChallenges(expiredBy now: Date) async throws(StoreError) -> Int

    /// The account's user handle: the stored one, or else `proposed`, stored first (one conditional statement, so
    /// that two concurrent calls agree on one handle).
    /// - Returns: the handle every ceremony of the account must name.
    /// - Throws: `.notFound` for an unknown account, `.unavailable`.
    func userHandle(userID: String, proposing proposed: String) async throws(StoreError) -> String

    /// The account's passkeys, oldest first (ties by credential id).
    /// - Throws: `.unavailable`.
    func passkeys(userID: String) async throws(StoreError) -> [Passkey]

    /// The passkey with `credentialID`, with its account and that account's user handle.
    /// - Returns: nil for an unknown credential.
    /// - Throws: `.unavailable`.
    func passkey(credentialID: String) async throws(StoreError) -> (passkey: Passkey, user: User, userHandle: String)?

    /// Stores a verified passkey for an existing account, which has its user handle already (the registration
    /// options asked `userHandle(userID:proposing:)`): reading a passkey whose account has none throws `.misuse`.
    /// - Returns: true when stored; false when the credential id is registered already (to any account; nothing
    ///   changed).
    /// - Throws: `.notFound` for an unknown account, `.unavailable`.
    func insertPasskey(_ passkey: Passkey) async throws(StoreError) -> Bool

    /// Creates an account without a password (`user.passwordHash` is nil) with `userHandle` and its first passkey,
    /// in one transaction. The account is stored without a password and not disabled whatever `user` says, and the
    /// passkey under `user.id`.
    /// - Throws: `.emailTaken` when `user.email` belongs to an account, `.constraint(.primaryKey)` when the
    ///   credential id (or the user id) exists, `.constraint(.unique)` for a user handle in use, `.unavailable`.
    func createUser(_ user: User, userHandle: String, passkey: Passkey) async throws(StoreError)

    /// Records an accepted assertion: sets the counter to `signCount`, `backedUp` and `lastUsedAt` = `now`, only
    /// when the counter rule holds against the stored counter (`signCount` greater, or both zero), in one
    /// conditional statement: of two assertions with the same non-zero counter (a clone or a replay), on one
    /// instance or several, at most one is recorded.
    /// - Returns: true when recorded; false when the rule fails or the passkey is gone (nothing changed).
    /// - Throws: `.unavailable`.
    func recordAssertion(credentialID: String, signCount: UInt32, backedUp: Bool, now: Date) async throws(StoreError)
        -> Bool

    /// Renames the account's passkey.
    /// - Returns: the renamed passkey; nil when no passkey with that id belongs to that account.
    /// - Throws: `.unavailable`.
    func renamePasskey(credentialID: String, userID: String, name: String) async throws(StoreError) -> Passkey?

    /// Deletes the account's passkey unless it is the account's last way to sign in, in one transaction: it is
    /// kept when the account has no password, no linked identity, no other passkey, and not (`emailSignIn` and an
    /// email).
    /// - Parameter emailSignIn: whether email-code sign-in is on (`email.signInCodes` with a transport).
    /// - Throws: `.unavailable`.
    func deletePasskey(credentialID: String, userID: String, emailSignIn: Bool) async throws(StoreError)
        -> PasskeyDeletion

    /// Every passkey with its account's user handle, for `tokenvend db copy`.
    /// - Throws: `.unavailable`.
    func allPasskeys() async throws(StoreError) -> [(passkey: Passkey, userHandle: String)]
}
