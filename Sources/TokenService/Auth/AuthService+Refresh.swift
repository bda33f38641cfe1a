import AuthAPI
import HTTPServer
import Logging
import Store

extension AuthService {
    /// `POST /auth/refresh`: `{"refreshToken"}` (or the refresh cookie) → 200 with a new refresh token.
    ///
    /// Rotation with reuse detection and a grace window (API.md): the live token rotates; its parent presented
    /// again within `refreshToken.reuseGraceSeconds` converges on the same live token; any other reuse revokes
    /// the session. Unknown, expired, revoked and malformed tokens share one 401 `invalid_grant` body. A session
    /// bound to a DPoP key needs a proof by that key (`DPoPGate.checkRefresh`); the new pair stays bound.
    func refresh(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        try await limitAddress(request)
        var strategy = try Self.strategy(of: request)
        let presented: String
        let cookie = CookieJar.value(CookieJar.refreshCookie, in: request.headers)
        if request.body.isEmpty, let cookie, !cookie.isEmpty {
            // A browser attaches the cookie to a cross-site POST too: like every unsafe cookie request, the
            // refresh must echo the __Host-csrf_token cookie (a token in the body cannot be forged that way).
            try Authenticator.checkCSRF(request)
            presented = cookie
            // A token that came as a cookie goes back as cookies unless the client asked otherwise: answering
            // in the body would spend the cookie session's refresh token without replacing its cookies.
            if request.headers[HeaderName.authStrategy] == nil { strategy = .cookie }
        } else if request.body.isEmpty {
            // No refresh token at all (no body, no cookie): a missing credential, answered like a bad one.
            throw ServiceError.invalidGrant
        } else {
            presented = try RefreshRequest(body: request).refreshToken
        }
        guard let claims = refreshTokens.decode(presented) else { throw ServiceError.invalidGrant }
        // The session's binding decides whether a proof is needed, before anything changes: a refresh by another
        // key is refused without rotating or revoking (a thief holding the token cannot sign the owner out).
        let binding: SessionStatus?
        do {
            binding = try await sessions.status(sessionID: claims.sessionID)
        } catch {
            throw Self.mapStore(error)
        }
        try await authenticator.dpop.checkRefresh(
            request, boundTo: binding?.dpopThumbprint, strategy: strategy, now: now())
        let rotation: RotationResult
        do {
            // The user comes with the rotation (read under the same lock): no second round trip for it.
            rotation = try await sessions.rotateReadingUser(
                sessionID: claims.sessionID, presentedCounter: claims.counter, now: now(), grace: limits.reuseGrace,
                refreshTTL: limits.refreshTTL)
        } catch {
            throw Self.mapStore(error)
        }
        switch rotation.outcome {
        case .rotated(let session, let counter), .converged(let session, let counter):
            var user = rotation.user
            if user == nil {
                do {
                    user = try await users.find(byID: session.userID)
                } catch {
                    throw Self.mapStore(error)
                }
            }
            guard let user, !user.isDisabled else { throw ServiceError.invalidGrant }
            context.accessLogMetadata["user.id"] = .string(user.id)
            return try tokenResponse(user: user, session: session, counter: counter, strategy: strategy)
        case .reuseDetected(let sessionID, let userID):
            metrics.refreshReuseDetected.increment()
            metrics.sessionsRevoked.increment(.reuse)
            context.accessLogMetadata["user.id"] = .string(userID)
            context.logger.warning(
                "refresh token reuse detected; session revoked", metadata: ["session.id": "\(sessionID)"])
            throw ServiceError.invalidGrant
        case .invalid:
            throw ServiceError.invalidGrant
        }
    }
}
