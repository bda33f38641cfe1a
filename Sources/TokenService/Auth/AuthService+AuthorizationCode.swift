import AuthAPI
import FoundationEssentials
import HTTPServer
import IdentityProviders
import Logging
import Store

extension AuthService {
    /// `POST /auth/token` `{"grant_type": "authorization_code", "code", "code_verifier", "redirect_uri"}` (JSON or
    /// form-encoded) → 200 like login, plus `created`, honouring `X-Auth-Strategy`.
    ///
    /// The code is used up by its first presentation, whatever the outcome. `redirect_uri` must be the flow's and
    /// base64url(SHA-256(`code_verifier`)) its challenge (compared in constant time), else 400 `invalid_grant`. A
    /// code presented again revokes the session it issued (also when the replay lands between the first
    /// presentation and the session being recorded) and answers 400 `invalid_grant`. Errors use the RFC 6749 §5.2
    /// body `{"error", "error_description"}`; 429 and 503 keep the usual body and `Retry-After`.
    func exchangeAuthorizationCode(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        do {
            try await limitAddress(request)
        } catch {
            if case .tooManyRequests = error { metrics.oauthSignIns.increment(.tokenRateLimited) }
            throw error
        }
        let strategy: AuthStrategy
        let body: AuthorizationCodeTokenRequest
        do {
            strategy = try Self.strategy(of: request)
            body = try AuthorizationCodeTokenRequest(body: request)
        } catch {
            metrics.oauthSignIns.increment(.tokenInvalidRequest)
            return Self.oauthError(.invalidRequest, error.publicMessage)
        }
        guard body.grantType == AuthorizationCodeTokenRequest.authorizationCode else {
            metrics.oauthSignIns.increment(.tokenInvalidRequest)
            return Self.oauthError(.unsupportedGrantType, "grant_type must be authorization_code.")
        }
        if let missing = body.missingMember {
            metrics.oauthSignIns.increment(.tokenInvalidRequest)
            return Self.oauthError(.invalidRequest, "Missing \(missing).")
        }
        let binding = try await authenticator.dpop.bindingForNewSession(request, strategy: strategy, now: now())
        let codeHash = try OAuthRandom.sha256Hex(body.code)
        let redemption: CodeRedemption
        do {
            redemption = try await browser.store.redeemCode(codeHash: codeHash, now: now())
        } catch {
            throw Self.mapStore(error)
        }
        let refused = { (reason: String) -> HTTPResponse in
            self.metrics.oauthSignIns.increment(.tokenInvalidGrant)
            context.logger.info("authorization code refused", metadata: ["reason": "\(reason)"])
            return Self.oauthError(.invalidGrant, "The code is invalid, expired or used, or does not match.")
        }
        let record: AuthorizationCode
        switch redemption {
        case .unknown:
            return refused("unknown")
        case .replayed(let userID, let sessionID):
            metrics.oauthSignIns.increment(.tokenReplayed)
            if let sessionID { try await revokeReplayed(sessionID: sessionID, userID: userID, context: context) }
            context.logger.warning(
                "authorization code replayed; the session it issued is revoked",
                metadata: ["user.id": "\(userID)", "revoked": "\(sessionID != nil)"])
            return Self.oauthError(.invalidGrant, "The code is invalid, expired or used, or does not match.")
        case .redeemed(let redeemed):
            record = redeemed
        }
        guard RedirectURIMatch.sameBytes(record.redirectURI, body.redirectURI) else { return refused("redirect_uri") }
        guard PKCE.isValidVerifier(body.codeVerifier),
            PKCE.matches(verifier: body.codeVerifier, challenge: record.codeChallenge)
        else { return refused("code_verifier") }
        let found: Store.User?
        do {
            found = try await users.find(byID: record.userID)
        } catch {
            throw Self.mapStore(error)
        }
        guard let user = found, !user.isDisabled else { return refused("user") }
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
            guard try await browser.store.attachSession(codeHash: codeHash, sessionID: session.id) else {
                // Replayed between redeemCode and here: the replay could not see this session, so end it now.
                metrics.oauthSignIns.increment(.tokenReplayed)
                try await revokeReplayed(sessionID: session.id, userID: user.id, context: context)
                return Self.oauthError(.invalidGrant, "The code is invalid, expired or used, or does not match.")
            }
        } catch let error as StoreError {
            throw Self.mapStore(error)
        }
        metrics.oauthSignIns.increment(.tokenIssued)
        context.logger.info("authorization code exchanged", metadata: ["provider": "\(record.provider)"])
        return try tokenResponse(
            user: user, session: session, counter: session.counter, strategy: strategy, created: record.created)
    }

    /// Revokes the session a replayed code issued.
    private func revokeReplayed(sessionID: String, userID: String, context: RequestContext) async throws {
        do {
            let revoked = try await sessions.revoke(sessionID: sessionID, userID: userID, now: now())
            if revoked > 0 { metrics.sessionsRevoked.increment(.codeReplayed, by: revoked) }
        } catch {
            throw Self.mapStore(error)
        }
    }

    /// An RFC 6749 §5.2 error: 400 `{"error", "error_description"}`, `Cache-Control: no-store`.
    static func oauthError(_ code: ErrorCode, _ description: String) -> HTTPResponse {
        let body = OAuthErrorBody(error: code, errorDescription: description)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let bytes = try? encoder.encode(body) else {
            return .error(status: .badRequest, code: code.rawValue, message: description, headers: .noStore)
        }
        return .json(status: .badRequest, bytes: Array(bytes), headers: .noStore)
    }
}
