#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a page of `SessionStoring.liveSessions(userID:now:limit:after:)` continues: the last session of the
/// previous page, in the list's order (most recently used first, then by id).
public struct SessionPagePosition: Sendable, Equatable {
    /// The `lastUsedAt` of the previous page's last session, in milliseconds since 1970 as stored (an integer,
    /// so that a position survives a trip through a cursor string exactly).
    public var lastUsedMilliseconds: Int64
    /// The id of the previous page's last session.
    public var sessionID: String

    /// Creates a position.
    public init(lastUsedMilliseconds: Int64, sessionID: String) {
        self.lastUsedMilliseconds = lastUsedMilliseconds
        self.sessionID = sessionID
    }

    /// The position just after `session`.
    public init(after session: Session) {
        // Rounded to nearest: `lastUsedAt` was made from whole stored milliseconds, so this recovers them.
        self.init(
            lastUsedMilliseconds: Int64((session.lastUsedAt.timeIntervalSince1970 * 1000).rounded()),
            sessionID: session.id)
    }
}
