import AuthAPI
import FoundationEssentials
import HTTPServer
import IdentityProviders
import Logging
import Store

extension AuthService {
    /// `POST /auth/idtoken`: `{"provider", "idToken", "nonce"?, "name"?, "authorizationCode"?}` → 200 like login,
    /// plus `created`.
    ///
    /// With `authorizationCode` on a provider that configures Sign in with Apple's REST API, the code is redeemed
    /// once the account is known (``AppleTokens/redeem(code:provider:subject:userID:logger:)``, bounded at 5 s) and
    /// Apple's refresh token is kept sealed on the identity; a failed redemption is logged and counted, and the
    /// sign-in goes on. On any other provider the code is ignored.
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
    /// and to `tokenvend_idtoken_rejections_total{reason}`, never to the client. Every refused token counts against
    /// the client address (429 beyond `rateLimit.idTokenFailuresPerAddress` in `rateLimit.loginWindowSeconds`, a
    /// budget high enough for many users behind one carrier-NAT address, never reset by a success); a refusal
    /// after the provider's signature held counts against that provider and subject too, like failed logins
    /// against an account (429 for that subject beyond `rateLimit.loginFailuresPerAccount`, reset by its next
    /// sign-in). Garbage cannot be pinned on anyone's account: it counts against the sender's address only.
    func signInWithIDToken(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        do {
            try await limitAddress(request)
        } catch {
            if case .tooManyRequests = error { metrics.idTokenSignIns.increment(.rateLimited) }
            throw error
        }
        let strategy = try Self.strategy(of: request)
        let body = try IDTokenSignInRequest(body: request)
        let binding = try await authenticator.dpop.bindingForNewSession(request, strategy: strategy, now: now())
        guard let verifier = identity.verifiers[body.provider] else {
            throw ServiceError.invalidRequest("Unknown provider.")
        }
        let addressKey = Self.addressKey(of: request)
        try await checkIDTokenFailures(limits.idTokenAddressFailures, key: addressKey)
        func rejected(_ reason: IDTokenRejectionReason, subject: String? = nil) async throws -> ServiceError {
            try await rejectIDToken(
                reason, provider: body.provider, addressKey: addressKey,
                subjectKey: subject.map { Self.idTokenSubjectKey(provider: body.provider, subject: $0) },
                context: context)
        }
        let token: VerifiedIDToken
        do {
            token = try await verifier.verify(body.idToken, nonce: body.nonce, now: now())
        } catch .rejected(let reason) {
            throw try await rejected(.token(reason))
        } catch .rejectedSigned(let reason, let subject) {
            throw try await rejected(.token(reason), subject: subject)
        } catch .providerUnavailable(let retryAfter) {
            metrics.idTokenSignIns.increment(.providerUnavailable)
            context.logger.warning(
                "ID-token sign-in: no keys for the provider", metadata: ["provider": "\(body.provider)"])
            throw ServiceError.unavailable(
                "The identity provider's keys cannot be fetched; retry later.", retryAfter: max(1, retryAfter))
        }
        let subjectKey = Self.idTokenSubjectKey(provider: token.provider, subject: token.subject)
        try await checkIDTokenFailures(limits.idTokenSubjectFailures, key: subjectKey)
        let firstUse: Bool
        do {
            firstUse = try await identity.store.recordUse(
                tokenHash: token.tokenHash, expiresAt: token.rememberUntil, now: now())
        } catch {
            throw Self.mapStore(error)
        }
        guard firstUse else { throw try await rejected(.token(.replayed), subject: token.subject) }
        // After the replay guard, so that a replayed token is reported as such rather than by its spent nonce.
        if let refused = try await consumeServerNonce(body.nonce) {
            throw try await rejected(refused, subject: token.subject)
        }
        guard let (user, outcome) = try await account(for: token), !user.isDisabled else {
            throw try await rejected(.userDisabled, subject: token.subject)
        }
        if let code = body.authorizationCode, let apple = identity.apple {
            // Bounded by the client's deadline; a failure is logged and counted, never the sign-in's.
            await apple.redeem(
                code: code, provider: token.provider, subject: token.subject, userID: user.id, logger: context.logger)
        }
        do {
            // The subject's failures only: a success from an address shared by many users (carrier NAT) must not
            // clear the refusals of the others, nor let one account launder an attacker's.
            try await limits.idTokenSubjectFailures.reset(subjectKey)
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
                maxPerUser: limits.maxSessionsPerUser, dpopThumbprint: binding)
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

    /// Counts and logs a refused token, records the failure against the client address and, when the signature
    /// held (`subjectKey`), against the provider and subject, and gives the one body.
    private func rejectIDToken(
        _ reason: IDTokenRejectionReason, provider: String, addressKey: String, subjectKey: String?,
        context: RequestContext
    ) async throws -> ServiceError {
        metrics.idTokenSignIns.increment(.rejected)
        metrics.idTokenRejections.increment(reason)
        context.logger.info(
            "ID token refused", metadata: ["provider": "\(provider)", "reason": "\(reason.rawValue)"])
        do {
            try await limits.idTokenAddressFailures.record(addressKey)
            if let subjectKey { try await limits.idTokenSubjectFailures.record(subjectKey) }
        } catch {
            // Unrecorded, a failure would not count: refuse rather than answer 401 (fail closed, as login does).
            throw Self.rateLimitUnavailable(error)
        }
        return .invalidIDToken
    }

    /// 429 when `key` has used up its refused-token budget in `limiter`; 503 when the counters cannot answer.
    private func checkIDTokenFailures(_ limiter: any RateLimiting, key: String) async throws {
        let decision: RateLimiter.Decision
        do {
            decision = try await limiter.check(key)
        } catch {
            throw Self.rateLimitUnavailable(error)
        }
        if case .limited(let seconds) = decision {
            metrics.idTokenSignIns.increment(.rateLimited)
            throw ServiceError.tooManyRequests(retryAfter: seconds)
        }
    }

    /// The failure key of one provider's subject (provider names never contain `:`); a subject longer than 128
    /// bytes by its SHA-256 hex, so that a key stays small enough for the counters' index.
    static func idTokenSubjectKey(provider: String, subject: String) -> String {
        guard subject.utf8.count > 128, let digest = try? OAuthRandom.sha256Hex(subject) else {
            return "\(provider):\(subject)"
        }
        return "\(provider):sha256:\(digest)"
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
