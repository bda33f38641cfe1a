import Dispatch
import Store
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The change stamp of a `PostgresStore`'s status cache, fed by a dedicated `LISTEN tokenvend_sessions`
/// connection: it moves on every notification (a revocation, a disabled user, a changed customer id, on any
/// instance), on every write through this store, and whenever the listener connects or disconnects; while the
/// listener is down it allows no caching at all (`changeStamp()` is nil), since notifications would be missed.
///
/// The listener runs on its own Dispatch thread, waits on its socket in `poll` (100 ms at a time, to see `stop()`),
/// and reconnects by itself with a backoff of 50 ms doubling to 1 s.
final class PostgresChangeFeed: ChangeStampSource {
    /// The channel every revocation notifies, in the same transaction.
    static let channel = "tokenvend_sessions"

    private let counter = Atomic<UInt64>(0)
    private let listening = Atomic(false)
    private let stopped = Atomic(false)
    /// The listener connection's server process, 0 while down (for tests).
    let listenerProcessID = Atomic<Int32>(0)
    private let url: PostgresURL
    private let settings: PostgresConnection.Settings

    init(url: PostgresURL, settings: PostgresConnection.Settings) {
        self.url = url
        var settings = settings
        settings.applicationName = "tokenvend-listener"
        self.settings = settings
    }

    package func changeStamp() -> UInt64? {
        guard listening.load(ordering: .acquiring) else { return nil }
        return counter.load(ordering: .acquiring)
    }

    /// Records that the database may have changed (call after the transaction ended, never before).
    func changed() {
        counter.wrappingAdd(1, ordering: .releasing)
    }

    /// Starts the listener thread.
    func start() {
        DispatchQueue(label: "tokenvend.postgres.listen").async { self.listen() }
    }

    /// Stops the listener (within 100 ms) and allows no more caching.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        listening.store(false, ordering: .sequentiallyConsistent)
        changed()
    }

    private func listen() {
        var backoff = Duration.milliseconds(50)
        while !stopped.load(ordering: .sequentiallyConsistent) {
            do throws(StoreError) {
                let connection = try PostgresConnection(url: url, settings: settings)
                _ = try connection.run(
                    [PostgresStatement(unprepared: "LISTEN \(Self.channel)")], deadline: connection.deadline)
                listenerProcessID.store(connection.processID, ordering: .sequentiallyConsistent)
                // Anything committed while nobody listened may have been missed: kept answers end here too.
                changed()
                if !stopped.load(ordering: .sequentiallyConsistent) {
                    listening.store(true, ordering: .sequentiallyConsistent)
                }
                backoff = .milliseconds(50)
                while !stopped.load(ordering: .sequentiallyConsistent) {
                    let ready = try PostgresConnection.wait(
                        socket: connection.socket, events: Int16(POLLIN), until: .now + .milliseconds(100))
                    if ready, !(try connection.notifications()).isEmpty { changed() }
                }
            } catch {
                // Down: no caching until the next LISTEN succeeds.
            }
            listening.store(false, ordering: .sequentiallyConsistent)
            listenerProcessID.store(0, ordering: .sequentiallyConsistent)
            changed()
            if stopped.load(ordering: .sequentiallyConsistent) { break }
            usleep(UInt32(clamping: backoff.storeMilliseconds * 1000))
            backoff = min(backoff * 2, .seconds(1))
        }
    }
}
