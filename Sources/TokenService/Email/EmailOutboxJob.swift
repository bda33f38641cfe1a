import FoundationEssentials
import Logging
import Mail
import Store

/// The outbox's email rows (every kind but the job kinds of `OutboxJobKind`): opens each sealed body, hands it to
/// the `MailTransport`, and deletes the row once delivered. A transient failure retries after the backoff; a
/// permanent failure, ``OutboxSender/Timing/giveUpAfter`` (24 hours) of failures, or a body that no longer opens
/// (the refresh-token secret changed) gives the row up, logged and counted.
///
/// Logs carry the row id, kind, result, attempt and, for the file transport, the file written; never the code,
/// the body or the recipient's message.
struct EmailOutboxJob: OutboxJob {
    let transport: any MailTransport
    let keys: EmailCodeKeys
    /// The envelope sender (`MAIL FROM`): `email.from`'s address.
    let envelopeFrom: String
    let metrics: EmailMetrics

    func handles(kind: String) -> Bool {
        kind != OutboxJobKind.providerTokenRevocation
    }

    func run(_ entry: OutboxEntry, attempt: Int, context: OutboxJobContext) async {
        var metadata: Logger.Metadata = [
            "email.id": "\(entry.id)", "email.kind": "\(entry.kind)", "email.attempt": "\(attempt)",
        ]
        guard let message = keys.open(entry.body, id: entry.id) else {
            await giveUp(
                entry, reason: "the sealed message does not open (was the refresh-token secret changed?)",
                metadata: metadata, context: context)
            return
        }
        let receipt: MailReceipt
        do throws(MailDeliveryError) {
            receipt = try await transport.deliver(message, from: envelopeFrom, to: entry.recipient)
        } catch {
            metadata["email.reason"] = "\(error.reason)"
            await failed(entry, error, attempt: attempt, metadata: metadata, context: context)
            return
        }
        if let location = receipt.location { metadata["email.file"] = "\(location)" }
        do {
            try await context.store.completeOutbox(id: entry.id)
        } catch {
            // Delivered but still queued: it goes again once the lease ends. Better twice than lost.
            metadata["error"] = "\(error)"
            context.logger.warning("email sent but its outbox row could not be deleted", metadata: metadata)
        }
        metadata["email.result"] = "sent"
        metrics.message(entry.kind, .sent)
        context.logger.info("email sent", metadata: metadata)
    }

    /// A failed delivery: another try after the backoff, or given up (permanent, or queued 24 hours ago).
    private func failed(
        _ entry: OutboxEntry, _ error: MailDeliveryError, attempt: Int, metadata: Logger.Metadata,
        context: OutboxJobContext
    ) async {
        if case .permanent = error.kind {
            await giveUp(entry, reason: "refused: \(error.reason)", metadata: metadata, context: context)
            return
        }
        guard context.age(of: entry) < Double(context.timing.giveUpAfter.components.seconds) else {
            await giveUp(entry, reason: "failing for 24 hours: \(error.reason)", metadata: metadata, context: context)
            return
        }
        let delay = context.backoff(afterAttempt: attempt)
        var metadata = metadata
        metadata["email.result"] = "retried"
        metadata["email.retryInSeconds"] = "\(delay.components.seconds)"
        await context.retry(entry, after: delay, reason: error.reason, metadata: metadata)
        metrics.message(entry.kind, .retried)
        context.logger.warning("email delivery failed; will retry", metadata: metadata)
    }

    private func giveUp(
        _ entry: OutboxEntry, reason: String, metadata: Logger.Metadata, context: OutboxJobContext
    ) async {
        var metadata = metadata
        metadata["email.result"] = "failed"
        metadata["email.reason"] = "\(reason)"
        metadata = await context.fail(entry, reason: reason, metadata: metadata)
        metrics.message(entry.kind, .failed)
        context.logger.error("email given up", metadata: metadata)
    }
}
