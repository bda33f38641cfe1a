#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Identities (provider, subject → user) and the replay guard of ID tokens, on any backend: `IdentityStore`
/// (SQLite) and `PostgresIdentityStore` (PostgreSQL) implement it with the same results and errors.
///
/// Every method suspends; none blocks a thread of the cooperative pool. Deleting a user deletes its identities.
public protocol IdentityStoring: Sendable {
    /// The user linked to (provider, subject), or nil.
    /// - Throws: `.unavailable`.
    func user(provider: String, subject: String) async throws(StoreError) -> User?

    /// Links (provider, subject) to an existing user.
    /// - Parameter email: the verified email the provider gave, or nil.
    /// - Throws: `.constraint(.primaryKey)` when (provider, subject) is linked already (to anyone), `.notFound`
    ///   for an unknown user, `.unavailable`.
    func link(provider: String, subject: String, userID: String, email: String?, now: Date) async throws(StoreError)

    /// Creates a user without a password and links (provider, subject) to it, in one transaction.
    ///
    /// When (provider, subject) is linked already (a concurrent request for the same identity won), answers
    /// that user with `created: false` and creates nothing: one identity never makes two users.
    /// - Parameters:
    ///   - email: the user's (normalised, verified) email, also stored on the identity; nil for none.
    ///   - emailVerifiedAt: when the provider vouched for the email, or nil; the source recorded is
    ///     `EmailVerificationSource.provider(provider)`.
    ///   - tenantID: the new user's tenant (the provider's configured `tenant`), or nil; a user answered with
    ///     `created: false` keeps its own.
    /// - Returns: the user, and whether this call created it.
    /// - Throws: `.emailTaken` when the email belongs to another user, `.constraint(.primaryKey)` for a
    ///   duplicate user id, `.unavailable`.
    func createUser(
        id: String, email: String?, emailVerifiedAt: Date?, role: String, tenantID: String?, provider: String,
        subject: String, now: Date
    ) async throws(StoreError) -> (user: User, created: Bool)

    /// The user's identities, by creation time then provider and subject.
    /// - Throws: `.unavailable`.
    func identities(userID: String) async throws(StoreError) -> [Identity]

    /// Removes the link of (provider, subject) to `userID`, in one statement: a link of the same identity to
    /// another user (the identity was unlinked and signed in anew meanwhile) is left alone.
    /// - Returns: whether there was such a link.
    /// - Throws: `.unavailable`.
    func unlink(provider: String, subject: String, userID: String) async throws(StoreError) -> Bool

    /// Records the use of an ID token (by the hex SHA-256 of its text), kept until `pruneUses` forgets it.
    ///
    /// The caller passes the last moment it would still accept the token: its `exp` plus the verifier's leeway.
    /// `pruneUses` keeps a row `IDTokenUses.pruneMargin` (5 minutes) longer still, so a clock skew between the
    /// instances and the purger cannot free a hash that an instance still accepts.
    /// - Returns: true the first time, false for a replay of a hash still remembered, whatever `now` (on
    ///   PostgreSQL across every instance of the deployment).
    /// - Throws: `.unavailable`.
    func recordUse(tokenHash: String, expiresAt: Date, now: Date) async throws(StoreError) -> Bool

    /// Deletes the remembered uses that expired `IDTokenUses.pruneMargin` or more before `now` (the session
    /// purger calls it).
    /// - Returns: how many were deleted.
    /// - Throws: `.unavailable`.
    @discardableResult
    func pruneUses(expiredBy now: Date) async throws(StoreError) -> Int

    /// Stores a server-issued nonce (`POST /auth/nonce`) by the lowercase hex SHA-256 of its raw value, until
    /// `expiresAt`, unless `maxPending` unexpired nonces are stored already (on PostgreSQL, counted across every
    /// instance of the deployment).
    /// - Returns: true when stored; false at the cap (nothing stored).
    /// - Throws: `.unavailable`.
    func issueNonce(hash: String, expiresAt: Date, maxPending: Int, now: Date) async throws(StoreError) -> Bool

    /// Consumes a server-issued nonce: deletes it when it is stored and unexpired at `now`.
    /// - Returns: true once per issued nonce; false for one never issued, used already, or expired.
    /// - Throws: `.unavailable`.
    func consumeNonce(hash: String, now: Date) async throws(StoreError) -> Bool

    /// Deletes the nonces expired at `now` (the session purger calls it).
    /// - Returns: how many were deleted.
    /// - Throws: `.unavailable`.
    @discardableResult
    func pruneNonces(expiredBy now: Date) async throws(StoreError) -> Int

    /// Stores (replacing any earlier one) the provider's refresh token of the identity (provider, subject) linked to
    /// `userID`, sealed by the caller (`Identity.sealedRefreshToken`).
    /// - Returns: false when no such link exists (unlinked or deleted meanwhile): nothing stored.
    /// - Throws: `.unavailable`.
    @discardableResult
    func setSealedRefreshToken(provider: String, subject: String, userID: String, sealed: [UInt8])
        async throws(StoreError) -> Bool

    /// Records whether the provider's email relay forwards to the identity (provider, subject), whoever it is
    /// linked to (Apple's `email-enabled` / `email-disabled`).
    /// - Returns: false for an unknown identity (nothing stored).
    /// - Throws: `.unavailable`.
    @discardableResult
    func setEmailForwarding(provider: String, subject: String, forwards: Bool) async throws(StoreError) -> Bool
}

extension IdentityStoring {
    /// `createUser` for a user without a tenant.
    public func createUser(
        id: String, email: String?, emailVerifiedAt: Date?, role: String, provider: String, subject: String,
        now: Date
    ) async throws(StoreError) -> (user: User, created: Bool) {
        try await createUser(
            id: id, email: email, emailVerifiedAt: emailVerifiedAt, role: role, tenantID: nil, provider: provider,
            subject: subject, now: now)
    }

    /// `createUser` with the usual defaults: a new lowercase UUID, role `user`, now.
    public func createUser(
        email: String?, emailVerifiedAt: Date?, provider: String, subject: String
    ) async throws(StoreError) -> (user: User, created: Bool) {
        try await createUser(
            id: UUID().uuidString.lowercased(), email: email, emailVerifiedAt: emailVerifiedAt, role: "user",
            provider: provider, subject: subject, now: Date())
    }
}

/// The retention of remembered ID-token uses.
public enum IDTokenUses {
    /// How long after its `expiresAt` a remembered use is kept (5 minutes): it covers the clock skew between the
    /// instance that accepts a token and the one that prunes.
    public static let pruneMargin: TimeInterval = 5 * 60
}
