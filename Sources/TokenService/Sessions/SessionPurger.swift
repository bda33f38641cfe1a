import Dispatch
import Foundation
import Logging
import Store
import Synchronization

/// Deletes sessions that can no longer be used, in the background, in small batches.
///
/// Every `interval` (default 10 min; the first run 1 min after start) it deletes sessions that were revoked,
/// or whose refresh token expired, more than `retention` ago (default 2 days), at most `batchSize` rows
/// (default 500) per write transaction, pausing `pause` (default 50 ms) between batches so that logins and
/// refreshes queued on the store's writer go first. A run ends at the first batch short of `batchSize`.
///
/// Why keep ended sessions for `retention` at all: refresh-token reuse detection needs only *live* rows (a
/// token of a revoked or deleted session is refused alike), but an access token keeps working until its own
/// `exp` (at most `accessToken.ttlSeconds` ≤ 1 day, plus leeway) when its session merely stopped being
/// refreshable; two days outlast that, and leave the rows of a "reuse detected" incident to inspect.
///
/// Thread-safety: runs on its own serial queue (a blocking write per batch goes through the store's writer
/// queue); `stop()` may be called from any thread and waits for a running batch. `@unchecked Sendable`: the
/// `timer` is a Dispatch source (thread-safe; resumed once and cancelled once, as `state` records under its
/// `Mutex`), everything else is immutable or in `state`.
final class SessionPurger: @unchecked Sendable {
    /// Timing and sizes; see the type's note for the defaults.
    struct Configuration: Sendable {
        var firstRun: Duration = .seconds(60)
        var interval: Duration = .seconds(600)
        var retention: Duration = .seconds(2 * 86_400)
        var batchSize: Int = 500
        var pause: Duration = .milliseconds(50)
    }

    let configuration: Configuration
    private let sessions: SessionStore
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let queue = DispatchQueue(label: "tokenvend.sessions.purge")
    private let state = Mutex<State>(State())
    private let timer: any DispatchSourceTimer

    private struct State {
        var started = false
        var stopped = false
        var running = false
    }

    init(
        sessions: SessionStore, configuration: Configuration = Configuration(), logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.sessions = sessions
        self.configuration = configuration
        self.logger = logger
        self.now = now
        timer = DispatchSource.makeTimerSource(queue: queue)
    }

    deinit {
        // Dispatch traps when a suspended source is released: a purger never started is resumed, cancelled.
        let resume = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        timer.cancel()
        if resume { timer.resume() }
    }

    /// Schedules the periodic runs (once; later calls do nothing).
    func start() {
        let startable = state.withLock { state -> Bool in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            return true
        }
        guard startable else { return }
        timer.schedule(
            deadline: .now() + Self.interval(configuration.firstRun), repeating: Self.interval(configuration.interval))
        timer.setEventHandler { [weak self] in self?.run(completion: nil) }
        timer.resume()
    }

    /// Cancels the schedule and waits for a running batch (call before closing the database); the wait is a
    /// continuation, so no cooperative thread blocks behind a batch on the writer.
    func stop() async {
        state.withLock { $0.stopped = true }
        timer.cancel()
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    /// Runs one purge now (every due batch) and returns how many sessions it deleted.
    func purgeNow() async -> Int {
        await withCheckedContinuation { continuation in
            queue.async { self.run { continuation.resume(returning: $0) } }
        }
    }

    /// One run on `queue`: batches until a short one, a failure, or `stop()`. A run already under way makes a
    /// timer tick a no-op.
    private func run(completion: (@Sendable (Int) -> Void)?) {
        let startable = state.withLock { state -> Bool in
            guard !state.stopped, !state.running else { return false }
            state.running = true
            return true
        }
        guard startable else {
            completion?(0)
            return
        }
        let retention = configuration.retention.components.seconds
        let cutoff = now().addingTimeInterval(-Double(retention))
        batch(cutoff: cutoff, total: 0, completion: completion)
    }

    private func batch(cutoff: Date, total: Int, completion: (@Sendable (Int) -> Void)?) {
        let stopped = state.withLock { $0.stopped }
        var deleted = 0
        if !stopped {
            do {
                deleted = try sessions.purgeBatch(endedBefore: cutoff, limit: configuration.batchSize)
            } catch {
                logger.warning("session purge failed; retrying at the next run", metadata: ["error": "\(error)"])
                deleted = 0
            }
        }
        let sum = total + deleted
        if !stopped, deleted >= configuration.batchSize {
            queue.asyncAfter(deadline: .now() + Self.interval(configuration.pause)) {
                self.batch(cutoff: cutoff, total: sum, completion: completion)
            }
            return
        }
        state.withLock { $0.running = false }
        if sum > 0 { logger.info("purged ended sessions", metadata: ["sessions.deleted": "\(sum)"]) }
        completion?(sum)
    }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
