#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The session operations the service needs, on any backend: `SessionStore` (SQLite) and
/// `PostgresSessionStore` (PostgreSQL) implement it with the same results and errors.
///
/// Times: every method takes the caller's `now`. A backend shared by several instances may decide with its own
/// clock instead (PostgreSQL's `clock_timestamp()`, see `PostgresDatabase.Configuration.clock`), so the grace
/// window and reuse detection do not depend on which instance a request reaches.
public protocol SessionStoring: Sendable {
    /// Starts a session at counter 0, bound to the DPoP key `dpopThumbprint` when it is not nil, and revokes the
    /// user's least recently used live sessions beyond `maxPerUser`, in one transaction; see
    /// `SessionStore.create(…maxPerUser:)`.
    /// - Throws: `.notFound` (unknown user), `.userDisabled`, `.unavailable`.
    func create(
        userID: String, userAgent: String?, ip: String?, now: Date, refreshTTL: Duration, maxLifetime: Duration,
        maxPerUser: Int, dpopThumbprint: String?
    ) async throws(StoreError) -> (session: Session, revoked: Int)

    /// Decides a refresh in one transaction that holds the session row; see `SessionStore.rotate` for the
    /// rules and `RotationOutcome` for the answers.
    /// - Throws: `.unavailable` (including `.lockTimeout` when the row stays locked too long).
    func rotate(
        sessionID: String, presentedCounter: Int64, now: Date, grace: Duration, refreshTTL: Duration
    ) async throws(StoreError) -> RotationOutcome

    /// `rotate`, also answering the session's user as read in the same transaction (for `.rotated` and
    /// `.converged`), so the caller needs no second round trip for it. The default implementation calls `rotate`
    /// and answers no user (the caller then looks it up); both backends implement it.
    /// - Throws: as `rotate`.
    func rotateReadingUser(
        sessionID: String, presentedCounter: Int64, now: Date, grace: Duration, refreshTTL: Duration
    ) async throws(StoreError) -> RotationResult

    /// Revokes one session; with `userID`, only if it belongs to that user. Idempotent.
    /// - Returns: 1 if a live session was revoked now, else 0.
    @discardableResult
    func revoke(sessionID: String, userID: String?, now: Date) async throws(StoreError) -> Int

    /// Revokes every live session of the user except `except`.
    @discardableResult
    func revokeOthers(userID: String, except: String, now: Date) async throws(StoreError) -> Int

    /// Revokes every live session of the user.
    @discardableResult
    func revokeAll(userID: String, now: Date) async throws(StoreError) -> Int

    /// One page of the user's live sessions, most recently used first; see `SessionStore.liveSessions(…after:)`.
    func liveSessions(userID: String, now: Date, limit: Int, after: SessionPagePosition?) async throws(StoreError)
        -> [Session]

    /// The full session row, or nil.
    func find(sessionID: String) async throws(StoreError) -> Session?

    /// Liveness data for the per-request `sid` check, or nil for an unknown session. May be answered from the
    /// backend's status cache, which a revocation on any instance ends (bounded staleness: the cache lifetime).
    func status(sessionID: String) async throws(StoreError) -> SessionStatus?

    /// `status(sessionID:)` if it can be answered without waiting; see `ImmediateRead`.
    func immediateStatus(sessionID: String) throws(StoreError) -> ImmediateRead<SessionStatus?>

    /// The status of `sessionID` and the customer ids of `userID`, read together (`POST /stream-token`).
    func statusAndCustomerIDs(sessionID: String, userID: String, emailAsRegistered: Bool) async throws(StoreError)
        -> SessionRead

    /// `statusAndCustomerIDs` if it can be answered without waiting; see `ImmediateRead`.
    func immediateStatusAndCustomerIDs(sessionID: String, userID: String, emailAsRegistered: Bool)
        throws(StoreError) -> ImmediateRead<SessionRead>

    /// Deletes at most `limit` sessions that stopped being usable before `cutoff` (housekeeping).
    /// - Returns: how many rows were deleted (fewer than `limit` means nothing more is due).
    @discardableResult
    func purgeBatch(endedBefore cutoff: Date, limit: Int) async throws(StoreError) -> Int
}

extension SessionStoring {
    /// `rotate` with no user read (a backend that cannot read it in the same transaction).
    public func rotateReadingUser(
        sessionID: String, presentedCounter: Int64, now: Date, grace: Duration, refreshTTL: Duration
    ) async throws(StoreError) -> RotationResult {
        RotationResult(
            outcome: try await rotate(
                sessionID: sessionID, presentedCounter: presentedCounter, now: now, grace: grace,
                refreshTTL: refreshTTL),
            user: nil)
    }
}

/// A session's status and its user's customer ids, read together.
public struct SessionRead: Sendable, Equatable {
    /// Nil for an unknown session.
    public var status: SessionStatus?
    /// The user's customer ids (empty for an unknown user).
    public var customerIDs: [String: String]

    /// Creates a read result.
    public init(status: SessionStatus?, customerIDs: [String: String]) {
        self.status = status
        self.customerIDs = customerIDs
    }
}
