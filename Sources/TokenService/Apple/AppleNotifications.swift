import AuthAPI
import FoundationEssentials
import HTTPServer
import IdentityProviders
import JWT
import Logging
import Store

/// `POST /auth/apple/notifications`: Sign in with Apple's server-to-server notifications, `{"payload": JWS}`.
///
/// The JWS is verified with the provider's published keys (the cache ID tokens use; RS256 as the preset allows),
/// `iss` `https://appleid.apple.com`, `aud` the provider's `clientId` (which picks the provider) and `exp`. Its
/// `jti` is remembered through `IdentityStoring.recordUse` (its own hash domain, until `exp` plus the leeway), so
/// each notification is applied once: a replay answers 200 and does nothing. An event older than the identity's
/// link concerns an earlier link (unlinked since) and is ignored, so a replayed `account-delete` can never delete
/// a later account.
///
/// - `consent-revoked`: every session of the user is revoked; the identity stays linked.
/// - `account-delete`: the account is deleted (``deleteAccount``, method `apple_notification`) when Apple was its
///   only way in (no password, no other identity); otherwise the identity is unlinked.
/// - `email-disabled` / `email-enabled`: whether the relay forwards is recorded on the identity.
///
/// `200 {}` when handled (an unknown `sub`, a replay, a stale or unknown event too); `400 invalid_request` for
/// anything that does not verify; 503 when the keys or the database cannot answer (Apple retries).
/// Counted in `tokenvend_apple_notifications_total{type,result}`.
struct AppleNotifications: Sendable {
    /// One provider that takes notifications: its name, ID-token verifier and `clientId` (the `aud`).
    struct Receiver: Sendable {
        let provider: String
        let verifier: IDTokenVerifier
        let clientId: String
    }

    let receivers: [Receiver]
    let identities: any IdentityStoring
    let users: any UserStoring
    let sessions: any SessionStoring
    /// Deletes an account for Apple's `account-delete` (`AccountDeletion.delete(userID:method: .appleNotification)`).
    let deleteAccount: @Sendable (String) async throws -> Void
    let metrics: AppleMetrics
    let now: @Sendable () -> Date

    /// The receivers of `identity`: every provider with a native verifier and Apple's REST API configured.
    init(
        identity: IdentitySignIn, providers: [ConfiguredProvider], users: any UserStoring,
        sessions: any SessionStoring, metrics: AppleMetrics, now: @escaping @Sendable () -> Date,
        deleteAccount: @escaping @Sendable (String) async throws -> Void
    ) {
        receivers = providers.compactMap { provider in
            guard let rest = provider.appleREST, let verifier = identity.verifiers[provider.name] else { return nil }
            return Receiver(provider: provider.name, verifier: verifier, clientId: rest.clientId)
        }
        identities = identity.store
        self.users = users
        self.sessions = sessions
        self.metrics = metrics
        self.now = now
        self.deleteAccount = deleteAccount
    }

    private static let handled = HTTPResponse.json(bytes: Array("{}".utf8), headers: .noStore)

    func handle(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let notification: AppleNotification
        let receiver: Receiver
        do {
            (notification, receiver) = try await verify(request)
        } catch .invalid(let reason) {
            metrics.notification(type: "invalid", .rejected)
            context.logger.info("Apple notification refused", metadata: ["reason": "\(reason)"])
            throw ServiceError.invalidRequest("The notification does not verify.")
        } catch .unavailable(let retryAfter) {
            throw ServiceError.unavailable(
                "The identity provider's keys cannot be fetched; retry later.", retryAfter: max(1, retryAfter))
        }
        var metadata: Logger.Metadata = ["provider": "\(receiver.provider)", "type": "\(notification.type)"]
        let result = try await apply(notification, receiver: receiver, metadata: &metadata)
        metrics.notification(type: notification.type, result)
        metadata["result"] = "\(result.rawValue)"
        context.logger.info("Apple notification", metadata: metadata)
        return Self.handled
    }

    private enum Refusal: Error {
        case invalid(String)
        case unavailable(retryAfter: Int)
    }

    /// The verified event and the provider it is for.
    private func verify(_ request: HTTPRequest) async throws(Refusal) -> (AppleNotification, Receiver) {
        let payload: String
        do {
            payload = try JSONRequestBody(request, allowed: ["payload"]).string("payload")
        } catch {
            throw .invalid("body is not {\"payload\": JWS}")
        }
        // The audience picks the provider; the signature and every claim are then checked by its verifier.
        guard let unverified = try? JWTKeySet.decode(payload).payload,
            let receiver = receivers.first(where: { JWTClaims(unverified).audience.contains($0.clientId) })
        else { throw .invalid("no provider has this audience") }
        let claims: JWTClaims
        do {
            claims = try await receiver.verifier.verifyNotification(payload, audience: receiver.clientId, now: now())
        } catch .providerUnavailable(let retryAfter) {
            throw .unavailable(retryAfter: retryAfter)
        } catch {
            throw .invalid(error.rejection.map { "\($0.rawValue)" } ?? "\(error)")
        }
        guard let notification = AppleNotification(claims: claims) else {
            throw .invalid("no jti, exp or readable events claim")
        }
        return (notification, receiver)
    }

    /// Applies the event once; the result to count.
    private func apply(
        _ notification: AppleNotification, receiver: Receiver, metadata: inout Logger.Metadata
    ) async throws -> AppleMetrics.NotificationResult {
        let provider = receiver.provider
        do {
            let digest = try OAuthRandom.sha256Hex("apple-notification-jti\u{0}\(provider)\u{0}\(notification.jti)")
            let expiresAt = Date(timeIntervalSince1970: Double(notification.expiresAt + IDTokenVerifier.leeway))
            guard try await identities.recordUse(tokenHash: digest, expiresAt: expiresAt, now: now()) else {
                return .replayed
            }
            guard let user = try await identities.user(provider: provider, subject: notification.subject) else {
                return .unknownSubject
            }
            metadata["user.id"] = "\(user.id)"
            let identities = try await identities.identities(userID: user.id)
            // At one-second precision: Apple may send seconds, and an event of the link's own second is not older.
            let linkedAt = identities.first { $0.provider == provider && $0.subject == notification.subject }
                .map { Int64($0.createdAt.timeIntervalSince1970) * 1_000 }
            if let linkedAt, notification.eventTimeMilliseconds < linkedAt {
                return .stale
            }
            switch notification.type {
            case "consent-revoked":
                let revoked = try await sessions.revokeAll(userID: user.id, now: now())
                metadata["sessions"] = "\(revoked)"
            case "account-delete":
                if user.passwordHash == nil, identities.count == 1 {
                    try await deleteAccount(user.id)
                    metadata["action"] = "deleted"
                } else {
                    try await self.identities.unlink(provider: provider, subject: notification.subject, userID: user.id)
                    metadata["action"] = "unlinked"
                }
            case "email-disabled", "email-enabled":
                try await self.identities.setEmailForwarding(
                    provider: provider, subject: notification.subject, forwards: notification.type == "email-enabled")
            default:
                // A type Apple added later: acknowledged (Apple would otherwise retry), logged, counted as `other`.
                return .ignored
            }
            return .applied
        } catch let error as StoreError {
            throw AuthService.mapStore(error)
        }
    }
}
