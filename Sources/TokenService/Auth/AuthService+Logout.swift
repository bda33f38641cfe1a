import AuthAPI
import HTTPServer
import Logging
import Store

extension AuthService {
    /// `POST /auth/logout?scope=local|others|global` with the access token and/or `{"refreshToken"}` → 204.
    ///
    /// `local` is idempotent: a session that is already gone answers 204 too, and an expired access token still
    /// names its session (revoking needs no fresh proof), so a client whose token lapsed can still log out.
    /// `others` and `global` end sessions the credential does not belong to, so they need the credential of a
    /// live session: an access token that passes every check of an authenticated request, or the live refresh
    /// token (not a spent one) of a live session; else 401 (`invalid_token`, or `invalid_grant` when only a
    /// refresh token was presented) and nothing is revoked. With no credential at all the answer is 401. A credential
    /// of a session bound to a DPoP key names it only with a proof by that key.
    func logout(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let scope = try Self.scope(of: request)
        // The body is checked even when the access token alone names the session: a malformed one is 400 and
        // nothing is revoked.
        let bodyRefresh = try RefreshRequest.logoutToken(body: request)
        let identity: (userID: String, sessionID: String)?
        if scope == .local {
            identity = try await identify(request, bodyRefresh: bodyRefresh)
        } else {
            identity = try await identifyLive(request, bodyRefresh: bodyRefresh)
        }
        guard let identity else { return Self.loggedOut(request) }
        context.accessLogMetadata["user.id"] = .string(identity.userID)
        let revoked: Int
        do {
            switch scope {
            case .local:
                revoked = try await sessions.revoke(sessionID: identity.sessionID, userID: identity.userID, now: now())
            case .others:
                revoked = try await sessions.revokeOthers(
                    userID: identity.userID, except: identity.sessionID, now: now())
            case .global:
                revoked = try await sessions.revokeAll(userID: identity.userID, now: now())
            }
        } catch {
            throw Self.mapStore(error)
        }
        if revoked > 0 { metrics.sessionsRevoked.increment(.logout, by: revoked) }
        return scope == .others ? HTTPResponse(status: HTTPStatus(code: 204)) : Self.loggedOut(request)
    }

    /// The user and session the request's credentials name, live or not, or nil when they name no session.
    private func identify(
        _ request: HTTPRequest, bodyRefresh: String?
    ) async throws(ServiceError) -> (userID: String, sessionID: String)? {
        var presented = false
        if let credential = try Self.accessCredential(in: request) {
            presented = true
            if credential.viaCookie { try Authenticator.checkCSRF(request) }
            let lenient = Int64(limits.sessionMaxLifetime.components.seconds)
            if let claims = try? accessTokens.verify(credential.token, now: now(), extraLeeway: lenient) {
                // A bound token names its session only with a proof by its key: a copied token cannot sign the
                // owner out.
                let dpop = authenticator.dpop
                if let proof = try dpop.checkResource(
                    request, token: credential.token, scheme: credential.scheme,
                    boundTo: claims.confirmationThumbprint, now: now())
                {
                    try await dpop.record(proof, atTokenEndpoint: false, now: now())
                }
                return (claims.subject, claims.sessionID)
            }
        }
        if let refresh = try refreshCredential(in: request, bodyRefresh: bodyRefresh) {
            presented = true
            if let claims = refreshTokens.decode(refresh),
                let status = try? await sessions.status(sessionID: claims.sessionID)
            {
                if let bound = status.dpopThumbprint {
                    try await authenticator.dpop.checkPossession(request, boundTo: bound, now: now())
                }
                return (status.userID, claims.sessionID)
            }
        }
        guard presented else { throw .invalidToken(presented: false) }
        return nil
    }

    /// The user and session of a credential of a live session (`others`, `global`); throws 401 otherwise.
    private func identifyLive(
        _ request: HTTPRequest, bodyRefresh: String?
    ) async throws(ServiceError) -> (userID: String, sessionID: String) {
        let access = try Self.accessCredential(in: request)
        if access != nil {
            do {
                let caller = try await authenticator.authenticate(request, now: now())
                return (caller.userID, caller.sessionID)
            } catch .invalidToken {
                // Not live: a refresh token may still prove a live session.
            }
        }
        guard let refresh = try refreshCredential(in: request, bodyRefresh: bodyRefresh) else {
            throw .invalidToken(presented: access != nil)
        }
        if let claims = refreshTokens.decode(refresh) {
            let session: Session?
            do {
                session = try await sessions.find(sessionID: claims.sessionID)
            } catch {
                throw .unavailable("The session store is unavailable; retry later.", retryAfter: 1)
            }
            if let session, session.counter == claims.counter, session.isLive(at: now()) {
                if let bound = session.dpopThumbprint {
                    try await authenticator.dpop.checkPossession(request, boundTo: bound, now: now())
                }
                return (session.userID, session.id)
            }
        }
        throw access != nil ? .invalidToken(presented: true) : .invalidGrant
    }

    /// The access token and whether it came from the cookie, or nil when none was presented in a usable form;
    /// a malformed `Authorization` (two fields, `Bearer` alone) is 400 here as everywhere.
    private static func accessCredential(in request: HTTPRequest) throws(ServiceError) -> AccessCredential? {
        do {
            return try Authenticator.credential(in: request)
        } catch .invalidRequest(let message) {
            throw .invalidRequest(message)
        } catch {
            return nil
        }
    }

    /// The refresh token from the body or, failing that, from the cookie (which needs the CSRF header).
    private func refreshCredential(in request: HTTPRequest, bodyRefresh: String?) throws(ServiceError) -> String? {
        if let bodyRefresh { return bodyRefresh }
        guard let cookie = CookieJar.value(CookieJar.refreshCookie, in: request.headers), !cookie.isEmpty else {
            return nil
        }
        try Authenticator.checkCSRF(request)
        return cookie
    }

    private static func scope(of request: HTTPRequest) throws(ServiceError) -> LogoutScope {
        guard let query = request.query else { return .local }
        var scope = LogoutScope.local
        for pair in query.split(separator: "&") where pair.hasPrefix("scope=") {
            guard let parsed = LogoutScope(rawValue: String(pair.dropFirst("scope=".count))) else {
                throw .invalidRequest("scope must be local, others or global.")
            }
            scope = parsed
        }
        return scope
    }

    /// 204, clearing the session cookies when the request came with them.
    private static func loggedOut(_ request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse(status: HTTPStatus(code: 204))
        if request.headers["Cookie"] != nil {
            for cookie in CookieJar.clearingCookies() { response.headers.add(name: "Set-Cookie", value: cookie) }
        }
        return response
    }
}
