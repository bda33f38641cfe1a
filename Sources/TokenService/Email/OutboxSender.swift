import Atomics
import FoundationEssentials
import Logging
import Mail
import Store
import Synchronization

/// Runs the outbox, the one durable queue of outbound work: one per instance, started with the server and stopped
/// before the store closes. It runs when email is on or a provider configures Sign in with Apple's REST API.
///
/// It claims due rows for a lease (`EmailStoring.claimOutbox`; 90 s, longer than the transport's 60 s message
/// timeout, so a row is never run twice while a slow try is still under way) and hands each to the job of its
/// kind: ``EmailOutboxJob`` (email messages) or ``RevocationOutboxJob`` (`revoke_provider_token`). A job
/// completes, retries (backoff from 1 s doubling to at most 10 minutes) or gives up its row. A row of a kind no
/// job of this instance runs (email off here, or no Apple REST client) is retried after the longest backoff,
/// never dropped: another instance, or this one reconfigured, runs it.
///
/// It wakes at once when a request of this instance queues a row (``wake()``), and otherwise sleeps until the
/// next row falls due (`nextOutboxDue`) but never longer than 30 s, so rows queued by other instances, and rows
/// whose sender died with them (their lease runs out after 90 s), are picked up within two minutes; a sender
/// started under the name of one that died (``start(as:)``) takes its rows back at once.
/// `tokenvend_email_outbox_pending` counts every pending row, of every kind (`pendingOutboxCount`).
///
/// Thread-safety: the loop is one `Task`; `state` (under its `Mutex`) records whether it started or stopped.
final class OutboxSender: Sendable {
    /// Leases, batches and backoff; the defaults are the documented ones.
    struct Timing: Sendable {
        /// How long a claimed row is held. Default: 90 s.
        var lease: Duration = .seconds(90)
        /// The longest sleep between two looks at the outbox. Default: 30 s.
        var maxSleep: Duration = .seconds(30)
        /// The first retry's delay, doubled on each failure. Default: 1 s.
        var firstBackoff: Duration = .seconds(1)
        /// The longest delay between two tries. Default: 10 minutes.
        var maxBackoff: Duration = .seconds(600)
        /// How long after it was queued a message is given up. Default: 24 hours.
        var giveUpAfter: Duration = .seconds(86_400)
        /// How long after it was queued a provider token revocation is given up. Default: 7 days.
        var revocationGiveUpAfter: Duration = .seconds(7 * 86_400)
        /// Rows claimed at a time. Default: 10.
        var batchSize = 10
        /// How long `stop()` waits for a delivery under way. Default: 5 s (its row is retried after its lease).
        var stopGrace: Duration = .seconds(5)
    }

    private struct State {
        var task: Task<Void, Never>?
        var stopped = false
    }

    let store: any EmailStoring
    /// The jobs, by the kinds they handle (the first that handles a row's kind runs it).
    let jobs: [any OutboxJob]
    let metrics: EmailMetrics
    let logger: Logger
    let now: @Sendable () -> Date
    let timing: Timing
    /// Who holds a claimed row: a random name, or the instance's name from ``start(as:)``.
    var owner: String { identity.withLock { $0 } }
    private let identity = Mutex(UUID().uuidString.lowercased())
    private let signal = WakeSignal()
    private let state = Mutex(State())

    init(
        store: any EmailStoring, jobs: [any OutboxJob], metrics: EmailMetrics, logger: Logger,
        timing: Timing = Timing(), now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.jobs = jobs
        self.metrics = metrics
        self.logger = logger
        self.timing = timing
        self.now = now
    }

    /// A sender of email only (``EmailOutboxJob``).
    convenience init(
        store: any EmailStoring, transport: any MailTransport, keys: EmailCodeKeys, envelopeFrom: String,
        metrics: EmailMetrics, logger: Logger, timing: Timing = Timing(), now: @escaping @Sendable () -> Date
    ) {
        self.init(
            store: store,
            jobs: [EmailOutboxJob(transport: transport, keys: keys, envelopeFrom: envelopeFrom, metrics: metrics)],
            metrics: metrics, logger: logger, timing: timing, now: now)
    }

    private var context: OutboxJobContext {
        OutboxJobContext(store: store, timing: timing, now: now, logger: logger)
    }

    /// Starts the loop (once; later calls, and calls after `stop()`, do nothing).
    /// - Parameter name: the instance's name (`TokenServer` gives `<host name>:<port>`, which no other live process
    ///   can have); the loop first takes back the rows a previous process of that name held when it died, so a
    ///   restarted instance sends them at once rather than after their 90 s lease. Nil: a random name.
    func start(as name: String? = nil) {
        state.withLock { state in
            guard state.task == nil, !state.stopped else { return }
            if let name { identity.withLock { $0 = name } }
            state.task = Task { await self.run(releasing: name != nil) }
        }
    }

    /// Looks at the outbox now (a request of this instance queued a row).
    func wake() {
        signal.signal()
    }

    /// Stops the loop and waits for a delivery under way, at most `timing.stopGrace` (call before closing the
    /// store); a row still held is retried by any instance once its lease runs out.
    func stop() async {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            return state.task
        }
        signal.signal()
        guard let task else { return }
        let finished = WakeSignal()
        Task {
            await task.value
            finished.signal()
        }
        await finished.wait(atMost: timing.stopGrace)
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run(releasing: Bool) async {
        logger.debug("email outbox sender started", metadata: ["email.sender": "\(owner)"])
        if releasing {
            do {
                let released = try await store.releaseOutbox(claimedBy: owner)
                if released > 0 {
                    logger.info(
                        "email outbox: took back rows a previous process of this instance held",
                        metadata: ["email.sender": "\(owner)", "email.released": "\(released)"])
                }
            } catch {
                // Not fatal: the rows fall due again when their leases run out.
                logger.warning("email outbox release failed", metadata: ["error": "\(error)"])
            }
        }
        while !isStopped {
            let handled = await deliverDue()
            await countPending()
            guard !isStopped else { break }
            await signal.wait(atMost: await sleepTime(afterHandling: handled))
        }
    }

    /// Claims and delivers due rows until a claim comes back short of a batch; returns how many were handled.
    func deliverDue() async -> Int {
        var handled = 0
        while !isStopped {
            let entries: [OutboxEntry]
            do {
                entries = try await store.claimOutbox(
                    owner: owner, limit: timing.batchSize, lease: timing.lease, now: now())
            } catch {
                logger.warning("email outbox claim failed; retrying later", metadata: ["error": "\(error)"])
                return handled
            }
            for entry in entries {
                // Stopping: the rest of the batch keeps its lease and is retried by any instance once it ends.
                guard !isStopped else { return handled }
                await deliver(entry)
                handled += 1
            }
            guard entries.count >= timing.batchSize else { break }
        }
        return handled
    }

    /// How long to sleep: until the next row falls due, at most `maxSleep`; at least 1 s after a pass that found
    /// nothing (so a row due but not claimable, held by a live instance, cannot spin the loop).
    private func sleepTime(afterHandling handled: Int) async -> Duration {
        let floor: Duration = handled == 0 ? .seconds(1) : .milliseconds(50)
        let due: Date?
        do {
            due = try await store.nextOutboxDue()
        } catch {
            logger.warning("email outbox read failed; retrying later", metadata: ["error": "\(error)"])
            return timing.maxSleep
        }
        guard let due else { return timing.maxSleep }
        let seconds = due.timeIntervalSince(now())
        let until = Duration.milliseconds(Int64(max(0, min(seconds, 86_400)) * 1000))
        return min(max(until, floor), timing.maxSleep)
    }

    private func countPending() async {
        guard let pending = try? await store.pendingOutboxCount() else { return }
        metrics.pending.store(pending, ordering: .relaxed)
    }

    /// One try of one claimed row, by the job of its kind; a kind without a job here waits the longest backoff.
    private func deliver(_ entry: OutboxEntry) async {
        let attempt = entry.attempts + 1
        guard let job = jobs.first(where: { $0.handles(kind: entry.kind) }) else {
            let metadata: Logger.Metadata = [
                "outbox.id": "\(entry.id)", "outbox.kind": "\(entry.kind)", "outbox.attempt": "\(attempt)",
            ]
            await context.retry(
                entry, after: timing.maxBackoff, reason: "no job for kind \(entry.kind) on this instance",
                metadata: metadata)
            logger.warning("outbox row of a kind this instance does not run; retried later", metadata: metadata)
            return
        }
        await job.run(entry, attempt: attempt, context: context)
    }

    /// The delay before the try after `attempt` failed ones: 1 s, 2 s, 4 s, … at most 10 minutes.
    func backoff(afterAttempt attempt: Int) -> Duration {
        context.backoff(afterAttempt: attempt)
    }
}
