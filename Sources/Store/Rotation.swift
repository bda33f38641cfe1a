#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The refresh-rotation rule, the heart of the service's security, written once: both backends read the session
/// row (and whether its user is disabled) inside their transaction, ask `decide`, and write what it answers.
///
/// Rules, in order: revoked, refresh-expired or capped session, disabled user, or a negative counter → `.invalid`;
/// presented == live → `.rotate`; presented newer than live → `.invalid`; presented == live − 1 and
/// `now − rotatedAt ≤ grace` (grace > 0, both in whole milliseconds) → `.converged`; any other older counter →
/// `.revoke` (a spent token was replayed: reuse detected). An unknown session is `.invalid` before this is asked.
package enum Rotation: Sendable, Equatable {
    /// Nothing to do: the session cannot be refreshed, or the counter comes from the future. Nothing changes.
    case invalid
    /// The presented counter is the live one: spend it (counter + 1, refresh expiry slides).
    case rotate
    /// The parent of the live counter, within the grace window: answer the live counter again, change nothing.
    case converged
    /// A spent counter outside the grace window: revoke the session (reuse detected).
    case revoke

    /// Decides a refresh from plain values read in the backend's transaction.
    /// - Parameters:
    ///   - session: The session row as read (counter, `rotatedAt`, revocation, both expiries).
    ///   - presentedCounter: The counter the presented refresh token carries.
    ///   - userDisabled: Whether the session's user is disabled.
    ///   - now: The transaction's time.
    ///   - grace: How long the previous counter still converges after a rotation; zero or less: never.
    package static func decide(
        session: Session, presentedCounter: Int64, userDisabled: Bool, now: Date, grace: Duration
    ) -> Rotation {
        guard !userDisabled, session.isLive(at: now), presentedCounter >= 0 else { return .invalid }
        let live = session.counter
        if presentedCounter == live { return .rotate }
        if presentedCounter > live { return .invalid }
        let graceMilliseconds = grace.storeMilliseconds
        if presentedCounter == live - 1, graceMilliseconds > 0, let rotatedAt = session.rotatedAt,
            now.storeMilliseconds - rotatedAt.storeMilliseconds <= graceMilliseconds
        {
            return .converged
        }
        return .revoke
    }
}
