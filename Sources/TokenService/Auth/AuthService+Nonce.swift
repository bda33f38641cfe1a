import AuthAPI
import FoundationEssentials
import HTTPServer
import IdentityProviders
import Logging
import Store

extension AuthService {
    /// How long a server-issued nonce may wait for its sign-in: 600 seconds (10 minutes).
    static let nonceLifetimeSeconds = 600

    /// The seconds `POST /auth/nonce` asks a client to wait when `identity.maxPendingNonces` are pending: 60.
    static let nonceCapRetryAfter = 60

    /// `POST /auth/nonce`: no body (or `{}`) → 200 `{"nonce", "expiresIn"}`.
    ///
    /// A nonce is 32 random bytes (base64url), stored by its SHA-256 hex until `POST /auth/idtoken` consumes it
    /// or it expires after `nonceLifetimeSeconds` (shared by every instance on PostgreSQL). Counted against the
    /// client address like the other token-issuing requests, in a budget of its own so that the nonce does not
    /// halve the sign-ins an address may make (429 past `rateLimit.requestsPerAddressPerMinute`);
    /// past `identity.maxPendingNonces` unexpired nonces in all, 503 `unavailable` with `Retry-After: 60`.
    func issueNonce(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        try await limitAddress(request, bucket: "nonce:")
        _ = try JSONRequestBody(request, allowed: [], optional: true)
        let nonce = try OAuthRandom.token()
        let hash = try OAuthRandom.sha256Hex(nonce)
        let issued = now()
        let stored: Bool
        do {
            stored = try await identity.store.issueNonce(
                hash: hash, expiresAt: issued.addingTimeInterval(TimeInterval(Self.nonceLifetimeSeconds)),
                maxPending: identity.maxPendingNonces, now: issued)
        } catch {
            throw Self.mapStore(error)
        }
        guard stored else {
            context.logger.warning(
                "nonce refused: identity.maxPendingNonces are pending",
                metadata: ["max_pending": "\(identity.maxPendingNonces)"])
            throw ServiceError.unavailable(
                "Too many sign-ins are pending; retry later.", retryAfter: Self.nonceCapRetryAfter)
        }
        return try .json(
            NonceResponse(nonce: nonce, expiresIn: Self.nonceLifetimeSeconds), headers: .noStore)
    }

    /// With `identity.requireServerNonce`, consumes the app's nonce: nil when it was an unused nonce issued by
    /// `POST /auth/nonce`, else the rejection (`nonce_required` without one, `nonce_not_issued` for one never
    /// issued, used already or expired). The verifier has checked that the token's claim matches it.
    func consumeServerNonce(_ nonce: String?) async throws -> IDTokenRejectionReason? {
        guard identity.requireServerNonce else { return nil }
        guard let nonce else { return .nonceRequired }
        let consumed: Bool
        do {
            consumed = try await identity.store.consumeNonce(hash: try OAuthRandom.sha256Hex(nonce), now: now())
        } catch let error as StoreError {
            throw Self.mapStore(error)
        }
        return consumed ? nil : .nonceNotIssued
    }
}
