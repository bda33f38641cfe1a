import AuthAPI
import HTTPServer
import Logging
import Store

extension AuthService {
    /// `GET /auth/me` → `{"sub", "email"?, "emailVerified", "role", "tenantId"}` from the verified token, with no store read but
    /// the session check: `email` only when the token asserts it, i.e. when it is verified.
    ///
    /// Runs inline on the event loop when the store has the session's liveness at hand (SQLite always; PostgreSQL
    /// from its status cache), else checks the session in a `Task`.
    func me(_ request: HTTPRequest, _ context: RequestContext) throws -> HandlerResult {
        let now = now()
        switch try authenticator.authenticateImmediately(request, now: now) {
        case .value(let caller):
            return .response(Self.meResponse(caller, context))
        case .mustWait:
            let authenticator = self.authenticator
            return .async { Self.meResponse(try await authenticator.authenticate(request, now: now), context) }
        }
    }

    private static func meResponse(_ caller: Caller, _ context: RequestContext) -> HTTPResponse {
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        let body = MeResponse(
            sub: caller.userID, email: caller.email, emailVerified: caller.isEmailVerified, role: caller.role,
            tenantID: caller.tenantID)
        return .json(bytes: body.jsonBytes(), headers: .noStore)
    }

    /// `GET /auth/sessions?limit=&cursor=` → one page of the caller's live sessions, most recently used
    /// first; when more follow, `Link: </auth/sessions?limit=N&cursor=C>; rel="next"` (RFC 8288) names the next
    /// page (see `SessionPage`). The body stays a bare array.
    func listSessions(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let caller = try await authenticator.authenticate(request, now: now())
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        let page = try SessionPage(query: request.query)
        var live: [Session]
        do {
            // One more than the page, to learn whether a next page exists.
            live = try await sessions.liveSessions(
                userID: caller.userID, now: now(), limit: page.limit + 1, after: page.after)
        } catch {
            throw Self.mapStore(error)
        }
        var headers = HTTPHeaders.noStore
        if live.count > page.limit {
            live.removeLast(live.count - page.limit)
            if let last = live.last, let cursor = SessionPage.cursor(after: last) {
                headers.add(name: "Link", value: "</auth/sessions?limit=\(page.limit)&cursor=\(cursor)>; rel=\"next\"")
            }
        }
        let body = live.map {
            SessionInfo(
                id: $0.id, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, userAgent: $0.userAgent,
                current: $0.id == caller.sessionID)
        }
        return try .json(body, headers: headers)
    }

    /// `DELETE /auth/sessions/{id}` → 204, or 404 when it is not one of the caller's live sessions.
    func revokeSession(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let caller = try await authenticator.authenticate(request, now: now())
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        let id = (request.parameters["id"] ?? "").lowercased()
        let revoked: Int
        do {
            revoked = try await sessions.revoke(sessionID: id, userID: caller.userID, now: now())
        } catch {
            throw Self.mapStore(error)
        }
        guard revoked > 0 else { throw ServiceError.notFound }
        metrics.sessionsRevoked.increment(.revokedByUser)
        return HTTPResponse(status: HTTPStatus(code: 204))
    }
}
