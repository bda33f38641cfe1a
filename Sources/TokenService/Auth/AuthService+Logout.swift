import AuthAPI
import HTTPServer
import Logging
import Store

extension AuthService {
    /// `POST /auth/logout?scope=local|others|global` with the access token and/or `{"refreshToken"}` → 204.
    ///
    /// Idempotent: a session that is already gone answers 204 too. An expired access token still names its
    /// session (revoking needs no fresh proof), so a client whose token lapsed can still log out. With no
    /// credential at all the answer is 401.
    func logout(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let scope = try Self.scope(of: request)
        let identity = try await identify(request)
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
        if revoked > 0 { metrics.sessionsRevoked.increment("logout", by: Double(revoked)) }
        return scope == .others ? HTTPResponse(status: HTTPStatus(code: 204)) : Self.loggedOut(request)
    }

    /// The user and session the request's credentials name, or nil when they name no live session.
    private func identify(_ request: HTTPRequest) async throws(ServiceError) -> (userID: String, sessionID: String)? {
        // The body is checked even when the access token alone names the session: a malformed one is 400.
        let body = try JSONRequestBody(request, allowed: ["refreshToken"], optional: true)
        var refresh = try body.optionalString("refreshToken")
        var presented = false
        if let (token, viaCookie) = try? Authenticator.credential(in: request) {
            presented = true
            if viaCookie { try Authenticator.checkCSRF(request) }
            let lenient = Int64(limits.sessionMaxLifetime.components.seconds)
            if let claims = try? accessTokens.verify(token, now: now(), extraLeeway: lenient) {
                return (claims.subject, claims.sessionID)
            }
        }
        if refresh == nil { refresh = CookieJar.value(CookieJar.refreshCookie, in: request.headers) }
        if let refresh {
            presented = true
            if let claims = refreshTokens.decode(refresh),
                let status = try? await sessions.status(sessionID: claims.sessionID)
            {
                return (status.userID, claims.sessionID)
            }
        }
        guard presented else { throw .invalidToken(presented: false) }
        return nil
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
