import Cryptography
import FoundationEssentials
import HTTPServer
import Store

/// Turns a request into a `Caller`, or the 401/403 API.md prescribes.
///
/// The token is taken only from `Authorization: Bearer` (scheme in any letter case) or, in cookie mode, from
/// the `__Host-access_token` cookie, never from the query string. A cookie-authenticated request with an unsafe
/// method must carry `X-CSRF-Token` equal to the `__Host-csrf_token` cookie. After the signature and claims, the
/// session named by `sid` must be live: one indexed read per request, so a logout or a revocation by another
/// process (`tokenvend users disable`) takes effect on the very next request.
struct Authenticator: Sendable {
    let tokens: AccessTokenIssuer
    let sessions: any SessionStoring

    /// The caller of `request`, checked at `now`, for handlers that run on the event loop, when the session's
    /// liveness is at hand (SQLite: a point read on a pooled reader connection, microseconds; PostgreSQL: the
    /// status cache); `.mustWait` when only the `async` form can answer (then call it from a `Task`).
    func authenticateImmediately(_ request: HTTPRequest, now: Date) throws(ServiceError) -> ImmediateRead<Caller> {
        let (claims, viaCookie) = try verifiedClaims(request, now: now)
        let read: ImmediateRead<SessionStatus?>
        do {
            read = try sessions.immediateStatus(sessionID: claims.sessionID)
        } catch {
            throw Self.storeUnavailable(error)
        }
        guard case .value(let status) = read else { return .mustWait }
        try Self.check(status, userID: claims.subject, now: now)
        return .value(Self.caller(claims, viaCookie: viaCookie))
    }

    /// The same check for handlers that run in a Task: the session read suspends (SQLite hops to the store's
    /// queue, PostgreSQL waits on its connection pool within the pool's deadlines), so the cooperative thread
    /// pool never waits on the database.
    func authenticate(_ request: HTTPRequest, now: Date) async throws(ServiceError) -> Caller {
        let (claims, viaCookie) = try verifiedClaims(request, now: now)
        let status: SessionStatus?
        do {
            status = try await sessions.status(sessionID: claims.sessionID)
        } catch {
            throw Self.storeUnavailable(error)
        }
        try Self.check(status, userID: claims.subject, now: now)
        return Self.caller(claims, viaCookie: viaCookie)
    }

    /// The caller of `request` and the caller's customer ids, with the session check and the ids read together
    /// (`POST /stream-token`, on the event loop), when the store has them at hand; `.mustWait` otherwise.
    /// `emailAsRegistered` is `stream.emailCustomerId`: see `UserStore.customerIDs(userID:emailAsRegistered:)`.
    func authenticateWithCustomerIDsImmediately(
        _ request: HTTPRequest, now: Date, emailAsRegistered: Bool
    ) throws(ServiceError) -> ImmediateRead<CallerWithCustomerIDs> {
        let (claims, viaCookie) = try verifiedClaims(request, now: now)
        let immediate: ImmediateRead<SessionRead>
        do {
            immediate = try sessions.immediateStatusAndCustomerIDs(
                sessionID: claims.sessionID, userID: claims.subject, emailAsRegistered: emailAsRegistered)
        } catch {
            throw Self.storeUnavailable(error)
        }
        guard case .value(let read) = immediate else { return .mustWait }
        try Self.check(read.status, userID: claims.subject, now: now)
        return .value(
            CallerWithCustomerIDs(caller: Self.caller(claims, viaCookie: viaCookie), customerIDs: read.customerIDs))
    }

    /// `authenticateWithCustomerIDsImmediately` for a `Task`: the read suspends instead.
    func authenticateWithCustomerIDs(
        _ request: HTTPRequest, now: Date, emailAsRegistered: Bool
    ) async throws(ServiceError) -> CallerWithCustomerIDs {
        let (claims, viaCookie) = try verifiedClaims(request, now: now)
        let read: SessionRead
        do {
            read = try await sessions.statusAndCustomerIDs(
                sessionID: claims.sessionID, userID: claims.subject, emailAsRegistered: emailAsRegistered)
        } catch {
            throw Self.storeUnavailable(error)
        }
        try Self.check(read.status, userID: claims.subject, now: now)
        return CallerWithCustomerIDs(caller: Self.caller(claims, viaCookie: viaCookie), customerIDs: read.customerIDs)
    }

    /// The claims of the request's access token (signature, `typ`, `iss`, `aud`, times) and whether it came
    /// from the cookie (then an unsafe method needs the CSRF header); the session is not checked yet.
    func verifiedClaims(_ request: HTTPRequest, now: Date) throws(ServiceError) -> (AccessClaims, Bool) {
        let (token, viaCookie) = try Self.credential(in: request)
        if viaCookie, Self.isUnsafe(request.method) { try Self.checkCSRF(request) }
        do {
            return (try tokens.verify(token, now: now), viaCookie)
        } catch {
            throw .invalidToken(presented: true)
        }
    }

    /// The session must exist, belong to the token's subject, and be neither revoked nor past its cap.
    static func check(_ status: SessionStatus?, userID: String, now: Date) throws(ServiceError) {
        guard let status, status.userID == userID, status.isLive(at: now) else {
            throw .invalidToken(presented: true)
        }
    }

    static func caller(_ claims: AccessClaims, viaCookie: Bool) -> Caller {
        Caller(
            userID: claims.subject, sessionID: claims.sessionID, email: claims.email, role: claims.role,
            tenantID: claims.tenantID, viaCookie: viaCookie, authTime: claims.authTime)
    }

    /// 503 for a session read that failed, with the `Retry-After` of the store's failure (`StoreFailure`).
    private static func storeUnavailable(_ error: StoreError) -> ServiceError {
        .unavailable(
            "The session store is unavailable; retry later.", retryAfter: StoreFailure.retryAfter(error, default: 1))
    }

    /// The presented access token and whether it came from the cookie.
    ///
    /// - Throws: `.invalidRequest` (400, RFC 6750 §3.1) for two `Authorization` fields or `Bearer` without a
    ///   token; `.invalidToken` for another scheme (`presented` true) or no credential at all (false).
    static func credential(in request: HTTPRequest) throws(ServiceError) -> (String, Bool) {
        if let authorization = request.headers["Authorization"] {
            // One credential per request: with two, which one a proxy or a framework would pick is anybody's guess.
            guard !request.headers.isRepeated("Authorization") else {
                throw .invalidRequest("Send one Authorization header.")
            }
            guard let token = bearerToken(authorization) else {
                if isBearerWithoutToken(authorization) {
                    throw .invalidRequest("The Authorization header names the Bearer scheme but carries no token.")
                }
                throw .invalidToken(presented: true)
            }
            return (token, false)
        }
        if let cookie = CookieJar.value(CookieJar.accessCookie, in: request.headers), !cookie.isEmpty {
            return (cookie, true)
        }
        throw .invalidToken(presented: false)
    }

    /// The token of `Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive), or nil.
    ///
    /// Works on the UTF-8 bytes (no splitting or lowercasing): this runs on every authenticated request.
    static func bearerToken(_ authorization: String) -> String? {
        let utf8 = authorization.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex, utf8[index] == UInt8(ascii: " ") { index = utf8.index(after: index) }
        for expected in "bearer".utf8 {
            guard index != utf8.endIndex, utf8[index] | 0x20 == expected else { return nil }
            index = utf8.index(after: index)
        }
        guard index != utf8.endIndex, utf8[index] == UInt8(ascii: " ") else { return nil }
        while index != utf8.endIndex, isBlank(utf8[index]) { index = utf8.index(after: index) }
        var end = utf8.endIndex
        while end > index, isBlank(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        guard index < end else { return nil }
        return String(Substring(authorization.utf8[index..<end]))
    }

    /// Whether `authorization` is the word `Bearer` (any letter case) with nothing but blanks after it.
    static func isBearerWithoutToken(_ authorization: String) -> Bool {
        let words = authorization.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return words.count == 1 && words[0].lowercased() == "bearer"
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    static func isUnsafe(_ method: HTTPMethod) -> Bool {
        !(method == .get || method == .head || method == .options)
    }

    static func checkCSRF(_ request: HTTPRequest) throws(ServiceError) {
        guard let header = request.headers["X-CSRF-Token"], !header.isEmpty,
            let cookie = CookieJar.value(CookieJar.csrfCookie, in: request.headers),
            ConstantTime.equals(Array(header.utf8), Array(cookie.utf8))
        else { throw .csrfFailed }
    }
}
