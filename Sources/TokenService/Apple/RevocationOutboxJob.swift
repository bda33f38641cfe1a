import FoundationEssentials
import Logging
import Store

/// The outbox's `revoke_provider_token` rows (queued by `UserStoring.deleteUser`): opens the sealed refresh token
/// and has the provider revoke it (``AppleTokens/revoke(sealed:provider:)``). Revoked: the row is deleted.
/// Timeouts, connection failures, 5xx and a provider this instance has no REST client for: another try after the
/// outbox's backoff (1 s doubling to 10 minutes) until ``OutboxSender/Timing/revocationGiveUpAfter`` (7 days)
/// after the row was queued, then given up. A 4xx answer, or a token that no longer opens, ends the job at once.
/// Every end is logged and counted (`tokenvend_apple_token_requests_total{operation="revoke"}`); the token never
/// appears in a log.
struct RevocationOutboxJob: OutboxJob {
    let apple: AppleTokens

    func handles(kind: String) -> Bool {
        kind == OutboxJobKind.providerTokenRevocation
    }

    func run(_ entry: OutboxEntry, attempt: Int, context: OutboxJobContext) async {
        var metadata: Logger.Metadata = [
            "outbox.id": "\(entry.id)", "outbox.kind": "\(entry.kind)", "outbox.attempt": "\(attempt)",
            "provider": "\(entry.recipient)",
        ]
        switch await apple.revoke(sealed: entry.body, provider: entry.recipient) {
        case .revoked:
            do {
                try await context.store.completeOutbox(id: entry.id)
            } catch {
                // Revoked but still queued: it is revoked again once the lease ends (Apple answers 200 again).
                metadata["error"] = "\(error)"
                context.logger.warning(
                    "provider token revoked but its outbox row could not be deleted", metadata: metadata)
            }
            metadata["outbox.result"] = "revoked"
            context.logger.info("provider token revoked", metadata: metadata)
        case .refused(let reason):
            metadata["outbox.result"] = "failed"
            metadata["outbox.reason"] = "\(reason)"
            metadata = await context.fail(entry, reason: reason, metadata: metadata)
            context.logger.error("provider token revocation refused; given up", metadata: metadata)
        case .retry(let reason):
            metadata["outbox.reason"] = "\(reason)"
            guard context.age(of: entry) < Double(context.timing.revocationGiveUpAfter.components.seconds) else {
                apple.metrics.tokenRequest(.revoke, .givenUp)
                metadata["outbox.result"] = "failed"
                metadata = await context.fail(entry, reason: "failing for 7 days: \(reason)", metadata: metadata)
                context.logger.error("provider token revocation failing for 7 days; given up", metadata: metadata)
                return
            }
            let delay = context.backoff(afterAttempt: attempt)
            metadata["outbox.result"] = "retried"
            metadata["outbox.retryInSeconds"] = "\(delay.components.seconds)"
            await context.retry(entry, after: delay, reason: reason, metadata: metadata)
            context.logger.warning("provider token revocation failed; will retry", metadata: metadata)
        }
    }
}
