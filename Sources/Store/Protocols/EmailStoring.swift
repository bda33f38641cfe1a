#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Email codes and the durable outbox (issue 32), on any backend: `EmailStore` (SQLite) and `PostgresEmailStore`
/// (PostgreSQL) implement it with the same results and errors.
///
/// A code is stored only as a keyed hash (the caller computes it); the message that carries it is written in the
/// same transaction, sealed by the caller, so the store never holds a code in the clear. Each instance runs one
/// sender that claims due rows for a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so two instances never claim
/// the same row), delivers them, and deletes each once sent; a row whose lease ran out (its instance died) is due
/// again for any instance.
///
/// Both tables are transient: `tokenvend db copy` copies neither (drain the outbox first; `tokenvend email outbox`).
public protocol EmailStoring: Sendable {
    /// Stores `code`, replacing any code of the same purpose and subject (and so resetting its tries), and queues
    /// `message`, in one transaction: either both are written or neither. Without a message, only the code is
    /// stored: the enumeration-safe endpoints store an unusable code for an address without an active account, so
    /// that its request costs the same write as a known address's and nothing in its timing tells them apart.
    /// - Throws: `.notFound` when `code.userID` names no user; `.constraint(.primaryKey)` when the message id is
    ///   taken.
    func issueCode(_ code: EmailCode, message: OutboxMessage?) async throws(StoreError)

    /// Queues a message that carries no code (`email_changed_notice`, a test message).
    /// - Throws: `.constraint(.primaryKey)` when the message id is taken.
    func enqueue(_ message: OutboxMessage) async throws(StoreError)

    /// Checks a presented code against the stored one of `purpose` and `subject`, atomically (one transaction, the
    /// row locked on PostgreSQL, so two instances cannot both accept one code):
    /// - the hashes are equal and the code unexpired at `now`: the row is deleted and returned (`.accepted`);
    /// - else, when an unexpired code exists: its tries go up by one, and the row is deleted when they reach
    ///   `maxAttempts` (`.rejected(attemptsLeft: 0)`);
    /// - no code, or an expired one (deleted): `.missing`.
    ///
    /// The hashes are compared in constant time (`EmailCodeRedemption`, shared by both backends).
    func redeemCode(
        purpose: EmailCodePurpose, subject: String, hash: String, maxAttempts: Int, now: Date
    ) async throws(StoreError) -> EmailCodeCheck

    /// Claims up to `limit` due rows for `owner` until `now + lease`: rows not given up, whose `nextAttemptAt` is at
    /// or before `now`, and that nobody holds (never claimed, or a lease that ran out), oldest first.
    func claimOutbox(owner: String, limit: Int, lease: Duration, now: Date) async throws(StoreError) -> [OutboxEntry]

    /// Releases every pending row `owner` holds (as if its lease ended now), so they are due again at once: a
    /// sender that starts under the name of one that died (the same host and port: a restarted container or
    /// process) takes back what its predecessor held instead of waiting for the leases to run out.
    /// - Returns: how many rows were released.
    @discardableResult
    func releaseOutbox(claimedBy owner: String) async throws(StoreError) -> Int

    /// Deletes a row once its message was delivered; a row already gone (completed elsewhere) is no error.
    func completeOutbox(id: String) async throws(StoreError)

    /// Releases a claimed row for another try at `nextAttemptAt`, counting the failed attempt and keeping its
    /// reason (never a code or a message body). A row already gone or given up is left as it is.
    func retryOutbox(id: String, nextAttemptAt: Date, lastError: String) async throws(StoreError)

    /// Marks a row given up at `now`, counting the failed attempt and keeping its reason; the row is kept, without
    /// its body, for `tokenvend email outbox` until the purge. A row already gone or given up is left as it is.
    func failOutbox(id: String, lastError: String, now: Date) async throws(StoreError)

    /// Every row, pending and given up, oldest first, without bodies (`tokenvend email outbox`).
    func listOutbox() async throws(StoreError) -> [OutboxSummary]

    /// How many rows wait for delivery (not given up), for `tokenvend_email_outbox_pending`.
    func pendingOutboxCount() async throws(StoreError) -> Int

    /// When the next pending row falls due (its `nextAttemptAt`, or the end of its lease when held), or nil for an
    /// empty outbox: how long a sender may sleep when nothing wakes it.
    func nextOutboxDue() async throws(StoreError) -> Date?

    /// Deletes codes expired at `now` and rows given up before `failedBefore` (the session purger calls it).
    /// - Returns: how many rows were deleted.
    @discardableResult
    func pruneEmail(expiredBy now: Date, failedBefore: Date) async throws(StoreError) -> Int
}
