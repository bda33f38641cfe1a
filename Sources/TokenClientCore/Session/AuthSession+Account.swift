public import AuthAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Account endpoints: registration, logout, profile and session management.
extension AuthSession {
    /// Creates an account (`POST /auth/register`). Does not sign in. The account has no tenant: only the operator
    /// assigns one (`tokenvend users set-tenant`), so the client offers none to send.
    /// - Returns: the new user.
    /// - Throws: ``TokenClientError/server(status:body:)`` (409 `email_taken`, 400 `invalid_request`,
    ///   403 `registration_closed`), ``TokenClientError/transport(_:)``.
    @discardableResult
    public func register(email: String, password: String) async throws -> User {
        let body = RegisterRequest(email: email, password: password)
        let (data, response) = try await WireCoding.exchange(
            transport, makeRequest("POST", "auth/register", body: body))
        return try WireCoding.decodeSuccess(RegisterResponse.self, data: data, response: response).user
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
            let parts = link.split(separator: ";").map { $0.trimmingOptionalWhitespace() }
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
