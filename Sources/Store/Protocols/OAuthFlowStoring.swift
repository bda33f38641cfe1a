#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The transient state of the browser sign-in (OAuth 2.0 authorization code + PKCE), on any backend:
/// `OAuthFlowStore` (SQLite) and `PostgresOAuthFlowStore` (PostgreSQL) implement it with the same results and
/// errors. Flows and codes are single use; on PostgreSQL that holds across every instance of the deployment.
///
/// Neither flows nor codes are copied by `tokenvend db copy`: they live minutes. Deleting a user deletes its
/// codes. Every method suspends; none blocks a thread of the cooperative pool.
public protocol OAuthFlowStoring: Sendable {
    /// Stores a flow unless `maxLive` flows are live already (`expiresAt` after the new flow's `createdAt`): the
    /// cap of `identity.maxPendingFlows`, so that nobody can fill the table with flows never finished. On
    /// PostgreSQL the count and the insert are one statement; concurrent starts on several connections may each
    /// see the count below the cap, so the cap can be passed by at most the number of concurrent starts.
    /// - Returns: true when stored; false, storing nothing, when the cap is reached.
    /// - Throws: `.constraint(.primaryKey)` for a state hash stored already, `.unavailable`.
    func saveFlow(_ flow: OAuthFlow, maxLive: Int) async throws(StoreError) -> Bool

    /// Deletes and returns the flow: single use.
    /// - Returns: the flow, or nil when unknown, taken already, or expired (`expiresAt <= now`; an expired one
    ///   is deleted too).
    /// - Throws: `.unavailable`.
    func takeFlow(stateHash: String, now: Date) async throws(StoreError) -> OAuthFlow?

    /// Stores a code (unused, no session).
    /// - Throws: `.constraint(.primaryKey)` for a code hash stored already, `.notFound` for an unknown user,
    ///   `.unavailable`.
    func saveCode(_ code: AuthorizationCode) async throws(StoreError)

    /// Presents a code. Atomic: of concurrent presentations exactly one gets `.redeemed` (on PostgreSQL across
    /// instances); every later one gets `.replayed`, which marks the code replayed.
    /// - Returns: `.redeemed` for the first presentation before `expiresAt`; `.replayed` for any later one,
    ///   whatever `now`, until `pruneFlows` forgets the code; `.unknown` for a code never stored, pruned, or
    ///   expired before its first presentation (such a code is deleted).
    /// - Throws: `.unavailable`.
    func redeemCode(codeHash: String, now: Date) async throws(StoreError) -> CodeRedemption

    /// Records the session issued for a redeemed code, so that a later replay can revoke it.
    /// - Returns: true when recorded; false when the code was replayed since `redeemCode` (or is unknown, or
    ///   unused, or has a session already): the caller then revokes that session itself.
    /// - Throws: `.unavailable`.
    func attachSession(codeHash: String, sessionID: String) async throws(StoreError) -> Bool

    /// Deletes the expired flows (`expiresAt <= now`) and the codes whose `expiresAt` is `OAuthCodes.retention`
    /// (10 min) or more before `now`, so a late replay is still recognised (the session purger calls it).
    /// - Returns: how many rows were deleted.
    /// - Throws: `.unavailable`.
    @discardableResult
    func pruneFlows(now: Date) async throws(StoreError) -> Int
}

extension OAuthFlowStoring {
    /// Stores a flow without a cap (tests, tools).
    /// - Throws: `.constraint(.primaryKey)` for a state hash stored already, `.unavailable`.
    public func saveFlow(_ flow: OAuthFlow) async throws(StoreError) {
        _ = try await saveFlow(flow, maxLive: .max)
    }
}

/// The retention of one-time authorization codes.
public enum OAuthCodes {
    /// How long after its `expiresAt` a code is kept (10 minutes), so that a replay after the code expired
    /// still revokes the session the code issued.
    public static let retention: TimeInterval = 10 * 60
}
