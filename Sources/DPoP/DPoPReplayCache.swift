#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The proofs accepted within their window, in process memory, for a server that is the only instance (SQLite):
/// each replay key is accepted once until it expires. At most `capacity` keys are held; expired ones are dropped
/// as time passes, so memory follows the request rate times the window.
public final class DPoPReplayCache: Sendable {
    /// What `insert` decided.
    public enum Outcome: Sendable, Equatable {
        /// First time: the proof may be accepted.
        case fresh
        /// Seen before and not expired: refuse it.
        case replayed
        /// `capacity` unexpired keys are held already: nothing was recorded (answer 503, retry later).
        case full
    }

    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = capacity
        fatalError("PendingIssue35: DPoP module")
    }

    /// Records `key` (`DPoPProof.replayKey`) until `expiresAt`, unless it is held already or the cache is full.
    public func insert(_ key: String, expiresAt: Date, now: Date) -> Outcome {
        fatalError("PendingIssue35: DPoP module")
    }
}
