import FoundationEssentials
import Logging
import Store

/// What the outbox sender does with the claimed rows of some kinds: email messages (``EmailOutboxJob``), provider
/// token revocations (``RevocationOutboxJob``). A job completes, retries or gives up its row itself, through
/// ``OutboxJobContext``.
protocol OutboxJob: Sendable {
    /// Whether this job runs rows of `kind`.
    func handles(kind: String) -> Bool
    /// One try of one claimed row (`attempt` counts this one).
    func run(_ entry: OutboxEntry, attempt: Int, context: OutboxJobContext) async
}

/// The sender's store, clock, timing and logger, lent to a job for one row.
struct OutboxJobContext: Sendable {
    let store: any EmailStoring
    let timing: OutboxSender.Timing
    let now: @Sendable () -> Date
    let logger: Logger

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

    /// How long ago the row was queued, in seconds.
    func age(of entry: OutboxEntry) -> Double {
        now().timeIntervalSince(entry.createdAt)
    }

    /// Releases the row for another try after `delay`; a failure to record it is logged (the lease decides).
    func retry(_ entry: OutboxEntry, after delay: Duration, reason: String, metadata: Logger.Metadata) async {
        do {
            try await store.retryOutbox(
                id: entry.id, nextAttemptAt: now().addingTimeInterval(Double(delay.components.seconds)),
                lastError: reason)
        } catch {
            var metadata = metadata
            metadata["error"] = "\(error)"
            logger.warning("outbox retry could not be recorded; the lease decides", metadata: metadata)
        }
    }

    /// Gives the row up (kept, without its body, for `tokenvend email outbox`); a failure is only logged.
    /// - Returns: the metadata with the store's error, if any.
    func fail(_ entry: OutboxEntry, reason: String, metadata: Logger.Metadata) async -> Logger.Metadata {
        var metadata = metadata
        do {
            try await store.failOutbox(id: entry.id, lastError: reason, now: now())
        } catch {
            metadata["error"] = "\(error)"
        }
        return metadata
    }
}
