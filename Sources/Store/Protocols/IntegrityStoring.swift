#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// App-integrity state (issue 34) on any backend: the single-use challenges of `POST /integrity/challenge` and
/// the App Attest keys with their counters. `SQLiteIntegrityStore` and `PostgresIntegrityStore` implement it with
/// the same results and errors; on PostgreSQL every instance of the deployment sees the same rows, so a challenge
/// is used once and an assertion's counter advances once across all of them.
///
/// Every method suspends; none blocks a thread of the cooperative pool.
public protocol IntegrityStoring: Sendable {
    /// Stores a challenge by the lowercase hex SHA-256 of its raw value (the base64url text the client got), until
    /// `expiresAt`, unless `maxPending` unexpired challenges are stored already (on PostgreSQL, counted across
    /// every instance).
    /// - Returns: true when stored; false at the cap (nothing stored).
    /// - Throws: `.unavailable`.
    func issueChallenge(hash: String, expiresAt: Date, maxPending: Int, now: Date) async throws(StoreError) -> Bool

    /// Consumes a challenge: deletes it when it is stored and unexpired at `now`, in one statement.
    /// - Returns: true once per issued challenge; false for one never issued, used already, or expired.
    /// - Throws: `.unavailable`.
    func consumeChallenge(hash: String, now: Date) async throws(StoreError) -> Bool

    /// Deletes the challenges expired at `now` (the session purger calls it).
    /// - Returns: how many were deleted.
    /// - Throws: `.unavailable`.
    @discardableResult
    func pruneChallenges(expiredBy now: Date) async throws(StoreError) -> Int

    /// Stores a key whose attestation verified.
    /// - Returns: true when stored; false when a key with that id is stored already (nothing changed: a key is
    ///   attested once, and its counter never goes back).
    /// - Throws: `.unavailable`.
    func insertAttestedKey(_ key: AttestedKey) async throws(StoreError) -> Bool

    /// The stored key with that id (exactly as the app sent it), or nil.
    /// - Throws: `.unavailable`.
    func attestedKey(id: String) async throws(StoreError) -> AttestedKey?

    /// Every stored key, oldest first (ties by id): `tokenvend integrity keys list`.
    /// - Throws: `.unavailable`.
    func attestedKeys() async throws(StoreError) -> [AttestedKey]

    /// Advances a key's counter to `counter` and sets `lastAssertedAt` to `now`, only when the stored counter is
    /// lower, in one conditional statement: of two assertions with the same counter (a replay) or arriving out
    /// of order, on one instance or several, at most one advances it.
    /// - Returns: true when advanced; false when the stored counter is already `counter` or higher, or the key is
    ///   unknown (nothing changed).
    /// - Throws: `.unavailable`.
    func advanceCounter(keyID: String, to counter: UInt32, now: Date) async throws(StoreError) -> Bool

    /// Deletes a stored key (`tokenvend integrity keys delete`: an operator distrusts an installation).
    /// - Returns: whether there was such a key.
    /// - Throws: `.unavailable`.
    @discardableResult
    func deleteAttestedKey(id: String) async throws(StoreError) -> Bool
}
