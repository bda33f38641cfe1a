import AuthAPI
import Foundation
import HTTPServer
import IdentityProviders
import Logging
import Store

extension AuthService {
    /// `POST /auth/idtoken`: `{"provider", "idToken", "nonce"?, "name"?}` → 200 like login, plus `created`.
    ///
    /// The ID token is checked by the provider's `IDTokenVerifier` (keys from its cached JWKS); with
    /// `identity.requireServerNonce` its nonce must also be an unused one of `POST /auth/nonce`, consumed after the
    /// replay guard (`consumeServerNonce`); the token is accepted once
    /// (the hash of its signed part is remembered until its `exp` plus the verifier's 60 s leeway, shared by every
    /// instance on PostgreSQL). Accounts: a known identity
    /// signs in its user; an unknown one whose verified email belongs to a user is linked to it only when
    /// `identity.linkVerifiedEmail` is on (else 409 `identity_conflict`); otherwise a user without a password is
    /// made when registration is open (else 403 `registration_closed`).
    ///
    /// Every token failure, and a disabled account, is the same 401 `invalid_grant`: the reason goes to the log
    /// and to `tokenvend_idtoken_rejections_total{reason}`, never to the client. Failures count against the
    /// client address like failed logins against an account (429 beyond `rateLimit.loginFailuresPerAccount` in
    /// `rateLimit.loginWindowSeconds`); no account is known before the token is verified.
    func signInWithIDToken(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        do {
            try await limitAddress(request)
        } catch {
            if case .tooManyRequests = error { metrics.idTokenSignIns.increment(.rateLimited) }
            throw error
        }
        let strategy = try Self.strategy(of: request)
        let body = try IDTokenSignInRequest(body: request)
        guard let verifier = identity.verifiers[body.provider] else {
            throw ServiceError.invalidRequest("Unknown provider.")
        }
        let failureKey = "idtoken:" + Self.addressKey(of: request)
        let failures: RateLimiter.Decision
        do {
            failures = try await limits.accountFailures.check(failureKey)
        } catch {
            throw Self.rateLimitUnavailable(error)
        }
        if case .limited(let seconds) = failures {
            metrics.idTokenSignIns.increment(.rateLimited)
            throw ServiceError.tooManyRequests(retryAfter: seconds)
        }
        let rejected = { (reason: IDTokenRejectionReason) async throws -> ServiceError in
            try await self.rejectIDToken(reason, provider: body.provider, failureKey: failureKey, context: context)
        }
        let token: VerifiedIDToken
        do {
            token = try await verifier.verify(body.idToken, nonce: body.nonce, now: now())
        } catch .rejected(let reason) {
            throw try await rejected(.token(reason))
        } catch .providerUnavailable(let retryAfter) {
            metrics.idTokenSignIns.increment(.providerUnavailable)
            context.logger.warning(
                "ID-token sign-in: no keys for the provider", metadata: ["provider": "\(body.provider)"])
            throw ServiceError.unavailable(
                "The identity provider's keys cannot be fetched; retry later.", retryAfter: max(1, retryAfter))
        }
        let firstUse: Bool
        do {
            firstUse = try await identity.store.recordUse(
                tokenHash: token.tokenHash, expiresAt: token.rememberUntil, now: now())
        } catch {
            throw Self.mapStore(error)
        }
        guard firstUse else { throw try await rejected(.token(.replayed)) }
        // After the replay guard, so that a replayed token is reported as such rather than by its spent nonce.
        if let refused = try await consumeServerNonce(body.nonce) { throw try await rejected(refused) }
        guard let (user, outcome) = try await account(for: token), !user.isDisabled else {
            throw try await rejected(.userDisabled)
        }
        do {
            try await limits.accountFailures.reset(failureKey)
        } catch {
            context.logger.warning("ID-token failures not reset", metadata: ["error": "\(error)"])
        }
        context.accessLogMetadata["user.id"] = .string(user.id)
        let session: Session
        do {
            let created = try await sessions.create(
                userID: user.id, userAgent: request.headers["User-Agent"].map { String($0.prefix(256)) },
                ip: request.clientAddress?.description ?? request.remoteAddress, now: now(),
                refreshTTL: limits.refreshTTL, maxLifetime: limits.sessionMaxLifetime,
                maxPerUser: limits.maxSessionsPerUser)
            session = created.session
            if created.revoked > 0 { metrics.sessionsRevoked.increment(.sessionCap, by: created.revoked) }
        } catch {
            throw Self.mapStore(error)
        }
        metrics.idTokenSignIns.increment(outcome)
        context.logger.info(
            "ID-token sign-in", metadata: ["provider": "\(token.provider)", "result": "\(outcome.rawValue)"])
        return try tokenResponse(
            user: user, session: session, counter: session.counter, strategy: strategy,
            created: outcome == .created)
    }

    /// Counts and logs a refused token, records the failure against the client address, and gives the one body.
    private func rejectIDToken(
        _ reason: IDTokenRejectionReason, provider: String, failureKey: String, context: RequestContext
    ) async throws -> ServiceError {
        metrics.idTokenSignIns.increment(.rejected)
        metrics.idTokenRejections.increment(reason)
        context.logger.info(
            "ID token refused", metadata: ["provider": "\(provider)", "reason": "\(reason.rawValue)"])
        do {
            try await limits.accountFailures.record(failureKey)
        } catch {
            // Unrecorded, a failure would not count: refuse rather than answer 401 (fail closed, as login does).
            throw Self.rateLimitUnavailable(error)
        }
        return .invalidIDToken
    }

    /// The user a verified token signs in, and how: the linked user, a user linked by verified email, or a new
    /// user without a password; nil when the email matched a disabled user (nothing linked).
    /// - Throws: `ServiceError.identityConflict`, `.registrationClosed`, or a store failure (mapped).
    private func account(for token: VerifiedIDToken) async throws -> (Store.User, IDTokenSignInResult)? {
        let outcome: AccountOutcome
        do {
            outcome = try await resolveAccount(provider: token.provider, subject: token.subject, email: token.email)
        } catch .emailTaken {
            // The email was registered between the lookup and the insert.
            outcome = .conflict
        } catch {
            throw Self.mapStore(error)
        }
        switch outcome {
        case .user(let user, let result):
            return (user, result)
        case .disabled:
            return nil
        case .conflict:
            metrics.idTokenSignIns.increment(.conflict)
            throw ServiceError.identityConflict
        case .registrationClosed:
            metrics.idTokenSignIns.increment(.registrationClosed)
            throw ServiceError.registrationClosed
        }
    }
}
