import Foundation
import HTTPServer
import JWT
import Store

/// Turns a request into a `Caller`, or the 401/403 API.md prescribes.
///
/// The token is taken only from `Authorization: Bearer` (scheme in any letter case) or, in cookie mode, from
/// the `access_token` cookie, never from the query string. A cookie-authenticated request with an unsafe
/// method must carry `X-CSRF-Token` equal to the `csrf_token` cookie. After the signature and claims, the
/// session named by `sid` must be live: one indexed read per request, so a logout or a revocation by another
/// process (`tokenvend users disable`) takes effect on the very next request.
struct Authenticator: Sendable {
    let tokens: AccessTokenIssuer
    let sessions: SessionStore

    /// The caller of `request`, checked at `now`, for handlers that run on the event loop: the session read
    /// is a blocking point read on a pooled reader connection (microseconds).
    func authenticate(_ request: HTTPRequest, now: Date) throws(ServiceError) -> Caller {
        let (claims, viaCookie) = try verifiedClaims(request, now: now)
        let status: SessionStatus?
        do {
            status = try sessions.status(sessionID: claims.sessionID)
        } catch {
            throw Self.storeUnavailable
        }
        return try caller(claims, viaCookie: viaCookie, status: status, now: now)
    }

    /// The same check for handlers that run in a Task: the session read hops to the store's queue, so the
    /// cooperative thread pool never waits on SQLite.
    func authenticate(_ request: HTTPRequest, now: Date) async throws(ServiceError) -> Caller {
        let (claims, viaCookie) = try verifiedClaims(request, now: now)
        let status: SessionStatus?
        do {
            status = try await sessions.status(sessionID: claims.sessionID)
        } catch {
            throw Self.storeUnavailable
        }
        return try caller(claims, viaCookie: viaCookie, status: status, now: now)
    }

    /// The access token's claims after the CSRF rule, the signature and the claims checks.
    private func verifiedClaims(_ request: HTTPRequest, now: Date) throws(ServiceError) -> (AccessClaims, Bool) {
        let (token, viaCookie) = try Self.credential(in: request)
        if viaCookie, Self.isUnsafe(request.method) { try Self.checkCSRF(request) }
        do {
            return (try tokens.verify(token, now: now), viaCookie)
        } catch {
            throw .invalidToken(presented: true)
        }
    }

    /// The session must exist, belong to the token's subject, and be neither revoked nor past its cap.
    private func caller(_ claims: AccessClaims, viaCookie: Bool, status: SessionStatus?, now: Date)
        throws(ServiceError) -> Caller
    {
        guard let status, status.userID == claims.subject, status.isLive(at: now) else {
            throw .invalidToken(presented: true)
        }
        return Caller(
            userID: claims.subject, sessionID: claims.sessionID, email: claims.email, role: claims.role,
            tenantID: claims.tenantID, viaCookie: viaCookie)
    }

    private static let storeUnavailable = ServiceError.unavailable(
        "The session store is unavailable; retry later.", retryAfter: 1)

    /// The presented access token and whether it came from the cookie.
    static func credential(in request: HTTPRequest) throws(ServiceError) -> (String, Bool) {
        if let authorization = request.headers["Authorization"] {
            guard let token = bearerToken(authorization) else { throw .invalidToken(presented: true) }
            return (token, false)
        }
        if let cookie = CookieJar.value(CookieJar.accessCookie, in: request.headers), !cookie.isEmpty {
            return (cookie, true)
        }
        throw .invalidToken(presented: false)
    }

    /// The token of `Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive), or nil.
    static func bearerToken(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingSpaces()
        return token.isEmpty ? nil : String(token)
    }

    static func isUnsafe(_ method: HTTPMethod) -> Bool {
        !(method == .get || method == .head || method == .options)
    }

    static func checkCSRF(_ request: HTTPRequest) throws(ServiceError) {
        guard let header = request.headers["X-CSRF-Token"], !header.isEmpty,
            let cookie = CookieJar.value(CookieJar.csrfCookie, in: request.headers),
            constantTimeEquals(Array(header.utf8), Array(cookie.utf8))
        else { throw .csrfFailed }
    }

    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
