import Synchronization

/// Where a `SessionStatusCache` learns that the database may have changed: a value that moves whenever a write
/// may have ended (SQLite: the shared `CommitCounter`; PostgreSQL: local writes, `LISTEN/NOTIFY` and the
/// listener's reconnections).
package protocol ChangeStampSource: Sendable {
    /// The current stamp, or nil when nothing may be kept now (e.g. the PostgreSQL listener is down).
    func changeStamp() -> UInt64?
}

/// Session liveness answers kept in memory between writes: what `SessionStore.status(sessionID:)` and
/// `statusAndCustomerIDs(sessionID:userID:emailAsRegistered:)` read, keyed by session id.
///
/// An answer is used only while the change stamp (`ChangeStampSource`; for SQLite the database's `CommitCounter`)
/// still has the value it had before the answer was read, and for at most `lifetime` after the read. So a logout, a rotation's reuse detection, a disabled user or a
/// changed customer id, committed by this process or by another on the same file, is seen by the very next
/// request; the lifetime only bounds what the counter cannot see (a process killed between its `COMMIT` and the
/// increment, or a change made with another SQLite client). Every write transaction empties the cache for every
/// session, which keeps it correct by construction; the cache pays off where it matters, on the read-mostly
/// token path.
///
/// Bounded: 16 shards of at most `capacity / 16` entries; a full shard is emptied. Safe from any thread.
package final class SessionStatusCache: Sendable {
    /// When an answer was read: the counter value before the read, and the time.
    package struct Stamp: Sendable {
        /// Nil: the source allowed no caching when the read began, so the answer is not kept.
        let commits: UInt64?
        let readAt: ContinuousClock.Instant
    }

    /// The customer-id part of an answer, with the arguments it was read for.
    package struct CustomerIDs: Sendable {
        let userID: String
        let emailAsRegistered: Bool
        let ids: [String: String]

        package init(userID: String, emailAsRegistered: Bool, ids: [String: String]) {
            self.userID = userID
            self.emailAsRegistered = emailAsRegistered
            self.ids = ids
        }
    }

    private struct Entry: Sendable {
        let stamp: Stamp
        let status: SessionStatus?
        let customerIDs: CustomerIDs?
    }

    /// One lock and its part of the answers (a class: `Mutex` cannot be an array element).
    private final class Shard: Sendable {
        let entries = Mutex<[String: Entry]>([:])
    }

    private static let shardCount = 16
    private let shards: [Shard]
    private let shardCapacity: Int
    private let source: any ChangeStampSource
    private let closed = Atomic(false)
    package let lifetime: Duration

    /// - Parameters:
    ///   - source: What moves when the database may have changed (the database's commit counter).
    ///   - lifetime: Longest time an answer is used; must be positive.
    ///   - capacity: Most answers kept. Default: 65,536 (a few MB at most).
    package init(source: any ChangeStampSource, lifetime: Duration, capacity: Int = 65_536) {
        precondition(lifetime > .zero, "lifetime must be positive")
        self.source = source
        self.lifetime = lifetime
        self.shardCapacity = max(1, capacity / Self.shardCount)
        self.shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// Take this before reading the database, and store the answer with it.
    package func stamp() -> Stamp {
        Stamp(commits: source.changeStamp(), readAt: .now)
    }

    /// The kept status of `sessionID` (an inner nil: the session does not exist), or nil when none is valid.
    package func status(_ sessionID: String) -> SessionStatus?? {
        guard let entry = validEntry(sessionID) else { return nil }
        return .some(entry.status)
    }

    /// The kept status and customer ids, when they were read for exactly these arguments.
    package func statusAndCustomerIDs(
        _ sessionID: String, userID: String, emailAsRegistered: Bool
    ) -> (status: SessionStatus?, customerIDs: [String: String])? {
        guard let entry = validEntry(sessionID), let kept = entry.customerIDs, kept.userID == userID,
            kept.emailAsRegistered == emailAsRegistered
        else { return nil }
        return (entry.status, kept.ids)
    }

    /// Keeps a status read under `stamp`.
    package func store(_ status: SessionStatus?, for sessionID: String, stamp: Stamp) {
        insert(Entry(stamp: stamp, status: status, customerIDs: nil), for: sessionID)
    }

    /// Keeps a status and customer ids read together under `stamp`.
    package func store(
        _ status: SessionStatus?, customerIDs: CustomerIDs, for sessionID: String, stamp: Stamp
    ) {
        insert(Entry(stamp: stamp, status: status, customerIDs: customerIDs), for: sessionID)
    }

    /// Drops every answer and keeps no more (`Database.close()`: a closed database answers nothing).
    package func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
        for shard in shards { shard.entries.withLock { $0.removeAll() } }
    }

    /// Answers kept (for tests).
    package var count: Int {
        shards.reduce(0) { total, shard in total + shard.entries.withLock { $0.count } }
    }

    private func shard(_ sessionID: String) -> Shard {
        shards[Int(UInt(bitPattern: sessionID.hashValue) % UInt(Self.shardCount))]
    }

    private func validEntry(_ sessionID: String) -> Entry? {
        guard let commits = source.changeStamp(), !closed.load(ordering: .relaxed) else { return nil }
        let entry = shard(sessionID).entries.withLock { $0[sessionID] }
        guard let entry, entry.stamp.commits == commits, entry.stamp.readAt.duration(to: .now) < lifetime else {
            return nil
        }
        return entry
    }

    private func insert(_ entry: Entry, for sessionID: String) {
        // Answers read before a write ended are stale already: do not keep them.
        guard let commits = entry.stamp.commits, commits == source.changeStamp() else { return }
        let capacity = shardCapacity
        shard(sessionID).entries.withLock { (entries: inout [String: Entry]) in
            guard !closed.load(ordering: .sequentiallyConsistent) else { return }
            if entries.count >= capacity, entries[sessionID] == nil { entries.removeAll(keepingCapacity: true) }
            entries[sessionID] = entry
        }
    }
}
