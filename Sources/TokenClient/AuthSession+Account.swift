public import AuthAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Account endpoints: registration, logout, profile and session management.
extension AuthSession {
    /// Creates an account (`POST /auth/register`). Does not sign in.
    /// - Returns: the new user.
    /// - Throws: ``TokenClientError/server(status:body:)`` (409 `email_taken`, 400 `invalid_request`,
    ///   403 `registration_closed`), ``TokenClientError/transport(_:)``.
    @discardableResult
    public func register(email: String, password: String, tenantId: String? = nil) async throws -> User {
        let body = RegisterRequest(email: email, password: password, tenantId: tenantId)
        let (data, response) = try await WireCoding.exchange(
            transport, makeRequest("POST", "auth/register", body: body))
        return try WireCoding.decodeSuccess(RegisterResponse.self, data: data, response: response).user
    }

    /// Signs out (`POST /auth/logout?scope=…`).
    ///
    /// For `.local` and `.global` the tokens are cleared and ``SessionState/signedOut`` published **before**
    /// the server is told, so the app is signed out even when this throws. `.others` keeps this session.
    /// Without a session, `.local` and `.global` return at once.
    /// - Throws: ``TokenClientError/server(status:body:)`` or ``TokenClientError/transport(_:)`` when the
    ///   server could not be told; ``TokenClientError/signedOut`` for `.others` without a session.
    public func logout(scope: LogoutScope = .local) async throws {
        if let inFlight = refreshInFlight { _ = try? await inFlight.task.value }
        guard let current = tokens else {
            if scope == .others { throw TokenClientError.signedOut }
            return
        }
        let path = "auth/logout"
        var request = makeRequest("POST", path, body: RefreshRequest(refreshToken: current.refreshToken))
        request.url = baseURL.appending(path: path).appending(queryItems: [
            URLQueryItem(name: "scope", value: scope.rawValue)
        ])
        if scope == .others {
            let (data, response) = try await send(request)
            try WireCoding.requireSuccess(data: data, response: response)
            return
        }
        signOutLocally()
        // The refresh token in the body identifies the session; an access token known to be expired
        // would only earn a 401.
        let accessExpired = current.accessTokenExpiresAt.map { now() >= $0 } ?? false
        if !accessExpired { request = authorized(request, current.accessToken) }
        let (data, response) = try await WireCoding.exchange(transport, request)
        try WireCoding.requireSuccess(data: data, response: response)
    }

    /// The caller's identity as the server sees it (`GET /auth/me`).
    /// - Throws: like ``send(_:)``, plus ``TokenClientError/server(status:body:)`` for a non-2xx answer.
    public func me() async throws -> MeResponse {
        try await json(makeRequest("GET", "auth/me"))
    }

    /// The caller's live sessions (`GET /auth/sessions`), every page: it follows `Link: <…>; rel="next"`
    /// (at most 1000 pages of 100).
    ///
    /// Only the link's `cursor` is taken; the next request is built on `baseURL` again, so a `Link` naming
    /// another host (or a path outside a `baseURL` with a prefix) never receives the access token.
    /// - Throws: like ``me()``.
    public func sessions() async throws -> [SessionInfo] {
        var all: [SessionInfo] = []
        var query: [URLQueryItem] = [.init(name: "limit", value: "100")]
        for _ in 0..<1000 {
            let url = baseURL.appending(path: "auth/sessions").appending(queryItems: query)
            let (data, response) = try await send(WireCoding.request("GET", url, body: Never?.none))
            all += try WireCoding.decodeSuccess([SessionInfo].self, data: data, response: response)
            guard let cursor = Self.nextCursor(response.value(forHTTPHeaderField: "Link")) else { break }
            query = [.init(name: "limit", value: "100"), .init(name: "cursor", value: cursor)]
        }
        return all
    }

    /// The `cursor` query value of a `Link` header's `rel="next"` target (RFC 8288), or nil.
    static func nextCursor(_ header: String?) -> String? {
        guard let header else { return nil }
        for link in header.split(separator: ",") {
            let parts = link.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = parts.first, target.hasPrefix("<"), target.hasSuffix(">"),
                parts.dropFirst().contains(where: { $0 == #"rel="next""# || $0 == "rel=next" }),
                let components = URLComponents(string: String(target.dropFirst().dropLast()))
            else { continue }
            return components.queryItems?.first(where: { $0.name == "cursor" })?.value
        }
        return nil
    }

    /// Revokes one of the caller's sessions (`DELETE /auth/sessions/{id}`); 404 when it is not theirs.
    /// - Throws: like ``me()``.
    public func revokeSession(id: String) async throws {
        let (data, response) = try await send(makeRequest("DELETE", "auth/sessions/\(id)"))
        try WireCoding.requireSuccess(data: data, response: response)
    }
}
