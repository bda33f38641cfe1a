import Atomics
import FoundationEssentials
import Logging
import Mail
import Store
import Synchronization

/// Delivers the email outbox: one per instance, started with the server and stopped before the store closes.
///
/// It claims due rows for a lease (`EmailStoring.claimOutbox`; 90 s, longer than the transport's 60 s message
/// timeout, so a row is never sent twice while a slow delivery is still under way), opens each sealed body,
/// hands it to the `MailTransport`, and deletes the row once delivered. A transient failure releases the row
/// for another try after a backoff that starts at 1 s and doubles to at most 10 minutes; a permanent failure,
/// 24 hours of failures since the row was queued, or a body that no longer opens (the refresh-token secret
/// changed) gives the row up (`failOutbox`), logged and counted.
///
/// It wakes at once when a request of this instance queues a row (``wake()``), and otherwise sleeps until the
/// next row falls due (`nextOutboxDue`) but never longer than 30 s, so rows queued by other instances, and rows
/// whose sender died with them (their lease runs out after 90 s), are picked up within two minutes; a sender
/// started under the name of one that died (``start(as:)``) takes its rows back at once. The transport
/// runs the SMTP exchange on a thread of its own, so a slow mail server holds only this loop, never a request.
///
/// Logs carry the row id, kind, result, attempt and, for the file transport, the file written; never the code,
/// the body or the recipient's message.
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
    let transport: any MailTransport
    let keys: EmailCodeKeys
    /// The envelope sender (`MAIL FROM`): `email.from`'s address.
    let envelopeFrom: String
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
        store: any EmailStoring, transport: any MailTransport, keys: EmailCodeKeys, envelopeFrom: String,
        metrics: EmailMetrics, logger: Logger, timing: Timing = Timing(), now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.transport = transport
        self.keys = keys
        self.envelopeFrom = envelopeFrom
        self.metrics = metrics
        self.logger = logger
        self.timing = timing
        self.now = now
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

    /// One try of one claimed row.
    private func deliver(_ entry: OutboxEntry) async {
        let attempt = entry.attempts + 1
        var metadata: Logger.Metadata = [
            "email.id": "\(entry.id)", "email.kind": "\(entry.kind)", "email.attempt": "\(attempt)",
        ]
        guard let message = keys.open(entry.body, id: entry.id) else {
            await giveUp(
                entry, reason: "the sealed message does not open (was the refresh-token secret changed?)",
                metadata: metadata)
            return
        }
        let receipt: MailReceipt
        do throws(MailDeliveryError) {
            receipt = try await transport.deliver(message, from: envelopeFrom, to: entry.recipient)
        } catch {
            metadata["email.reason"] = "\(error.reason)"
            await failed(entry, error, attempt: attempt, metadata: metadata)
            return
        }
        if let location = receipt.location { metadata["email.file"] = "\(location)" }
        do {
            try await store.completeOutbox(id: entry.id)
        } catch {
            // Delivered but still queued: it goes again once the lease ends. Better twice than lost.
            metadata["error"] = "\(error)"
            logger.warning("email sent but its outbox row could not be deleted", metadata: metadata)
        }
        metadata["email.result"] = "sent"
        metrics.message(entry.kind, .sent)
        logger.info("email sent", metadata: metadata)
    }

    /// A failed delivery: another try after the backoff, or given up (permanent, or queued 24 hours ago).
    private func failed(
        _ entry: OutboxEntry, _ error: MailDeliveryError, attempt: Int, metadata: Logger.Metadata
    ) async {
        let age = now().timeIntervalSince(entry.createdAt)
        if case .permanent = error.kind {
            await giveUp(entry, reason: "refused: \(error.reason)", metadata: metadata)
            return
        }
        guard age < Double(timing.giveUpAfter.components.seconds) else {
            await giveUp(entry, reason: "failing for 24 hours: \(error.reason)", metadata: metadata)
            return
        }
        let delay = backoff(afterAttempt: attempt)
        var metadata = metadata
        metadata["email.result"] = "retried"
        metadata["email.retryInSeconds"] = "\(delay.components.seconds)"
        do {
            try await store.retryOutbox(
                id: entry.id, nextAttemptAt: now().addingTimeInterval(Double(delay.components.seconds)),
                lastError: error.reason)
        } catch {
            metadata["error"] = "\(error)"
            logger.warning("email outbox retry could not be recorded; the lease decides", metadata: metadata)
        }
        metrics.message(entry.kind, .retried)
        logger.warning("email delivery failed; will retry", metadata: metadata)
    }

    /// The delay before the try after `attempt` failed ones: 1 s, 2 s, 4 s, … at most 10 minutes.
    func backoff(afterAttempt attempt: Int) -> Duration {
        let first = timing.firstBackoff.components.seconds
        let cap = timing.maxBackoff.components.seconds
        var delay = max(first, 1)
        for _ in 1..<max(attempt, 1) {
            delay *= 2
            if delay >= cap { return .seconds(cap) }
        }
        return .seconds(min(delay, cap))
    }

    private func giveUp(_ entry: OutboxEntry, reason: String, metadata: Logger.Metadata) async {
        var metadata = metadata
        metadata["email.result"] = "failed"
        metadata["email.reason"] = "\(reason)"
        do {
            try await store.failOutbox(id: entry.id, lastError: reason, now: now())
        } catch {
            metadata["error"] = "\(error)"
        }
        metrics.message(entry.kind, .failed)
        logger.error("email given up", metadata: metadata)
    }
}
