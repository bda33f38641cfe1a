import Synchronization

/// Session liveness answers kept in memory between writes: what `SessionStore.status(sessionID:)` and
/// `statusAndCustomerIDs(sessionID:userID:emailAsRegistered:)` read, keyed by session id.
///
/// An answer is used only while the database's `CommitCounter` still has the value it had before the answer was
/// read, and for at most `lifetime` after the read. So a logout, a rotation's reuse detection, a disabled user or a
/// changed customer id, committed by this process or by another on the same file, is seen by the very next
/// request; the lifetime only bounds what the counter cannot see (a process killed between its `COMMIT` and the
/// increment, or a change made with another SQLite client). Every write transaction empties the cache for every
/// session, which keeps it correct by construction; the cache pays off where it matters, on the read-mostly
/// token path.
///
/// Bounded: 16 shards of at most `capacity / 16` entries; a full shard is emptied. Safe from any thread.
final class SessionStatusCache: Sendable {
    /// When an answer was read: the counter value before the read, and the time.
    struct Stamp: Sendable {
        let commits: UInt64
        let readAt: ContinuousClock.Instant
    }

    /// The customer-id part of an answer, with the arguments it was read for.
    struct CustomerIDs: Sendable {
        let userID: String
        let emailAsRegistered: Bool
        let ids: [String: String]
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
    private let counter: CommitCounter
    private let closed = Atomic(false)
    let lifetime: Duration

    /// - Parameters:
    ///   - counter: The database's commit counter.
    ///   - lifetime: Longest time an answer is used; must be positive.
    ///   - capacity: Most answers kept. Default: 65,536 (a few MB at most).
    init(counter: CommitCounter, lifetime: Duration, capacity: Int = 65_536) {
        precondition(lifetime > .zero, "lifetime must be positive")
        self.counter = counter
        self.lifetime = lifetime
        self.shardCapacity = max(1, capacity / Self.shardCount)
        self.shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// Take this before reading the database, and store the answer with it.
    func stamp() -> Stamp {
        Stamp(commits: counter.value, readAt: .now)
    }

    /// The kept status of `sessionID` (an inner nil: the session does not exist), or nil when none is valid.
    func status(_ sessionID: String) -> SessionStatus?? {
        guard let entry = validEntry(sessionID) else { return nil }
        return .some(entry.status)
    }

    /// The kept status and customer ids, when they were read for exactly these arguments.
    func statusAndCustomerIDs(
        _ sessionID: String, userID: String, emailAsRegistered: Bool
    ) -> (status: SessionStatus?, customerIDs: [String: String])? {
        guard let entry = validEntry(sessionID), let kept = entry.customerIDs, kept.userID == userID,
            kept.emailAsRegistered == emailAsRegistered
        else { return nil }
        return (entry.status, kept.ids)
    }

    /// Keeps a status read under `stamp`.
    func store(_ status: SessionStatus?, for sessionID: String, stamp: Stamp) {
        insert(Entry(stamp: stamp, status: status, customerIDs: nil), for: sessionID)
    }

    /// Keeps a status and customer ids read together under `stamp`.
    func store(
        _ status: SessionStatus?, customerIDs: CustomerIDs, for sessionID: String, stamp: Stamp
    ) {
        insert(Entry(stamp: stamp, status: status, customerIDs: customerIDs), for: sessionID)
    }

    /// Drops every answer and keeps no more (`Database.close()`: a closed database answers nothing).
    func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
        for shard in shards { shard.entries.withLock { $0.removeAll() } }
    }

    /// Answers kept (for tests).
    var count: Int {
        shards.reduce(0) { total, shard in total + shard.entries.withLock { $0.count } }
    }

    private func shard(_ sessionID: String) -> Shard {
        shards[Int(UInt(bitPattern: sessionID.hashValue) % UInt(Self.shardCount))]
    }

    private func validEntry(_ sessionID: String) -> Entry? {
        let commits = counter.value
        guard !closed.load(ordering: .relaxed) else { return nil }
        let entry = shard(sessionID).entries.withLock { $0[sessionID] }
        guard let entry, entry.stamp.commits == commits, entry.stamp.readAt.duration(to: .now) < lifetime else {
            return nil
        }
        return entry
    }

    private func insert(_ entry: Entry, for sessionID: String) {
        // Answers read before a write ended are stale already: do not keep them.
        guard entry.stamp.commits == counter.value else { return }
        let capacity = shardCapacity
        shard(sessionID).entries.withLock { (entries: inout [String: Entry]) in
            guard !closed.load(ordering: .sequentiallyConsistent) else { return }
            if entries.count >= capacity, entries[sessionID] == nil { entries.removeAll(keepingCapacity: true) }
            entries[sessionID] = entry
        }
    }
}
