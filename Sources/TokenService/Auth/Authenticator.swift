import Cryptography
import DPoP
import FoundationEssentials
import HTTPServer
import Store

/// Turns a request into a `Caller`, or the 401/403 API.md prescribes.
///
/// The token is taken only from `Authorization: Bearer` or `Authorization: DPoP` (scheme in any letter case) or,
/// in cookie mode, from the `__Host-access_token` cookie, never from the query string. A DPoP-bound token
/// (`cnf.jkt`) must come with the `DPoP` scheme and a proof by its key (`DPoPGate.checkResource`), an unbound one
/// without that scheme. A cookie-authenticated request with an unsafe
/// method must carry `X-CSRF-Token` equal to the `__Host-csrf_token` cookie. After the signature and claims, the
/// session named by `sid` must be live: one indexed read per request, so a logout or a revocation by another
/// process (`tokenvend users disable`) takes effect on the very next request.
struct Authenticator: Sendable {
    let tokens: AccessTokenIssuer
    let sessions: any SessionStoring
    /// The DPoP checks of a bound token (`cnf.jkt`): scheme, proof, replay.
    let dpop: DPoPGate

    /// The caller of `request`, checked at `now`, for handlers that run on the event loop, when the session's
    /// liveness is at hand (SQLite: a point read on a pooled reader connection, microseconds; PostgreSQL: the
    /// status cache) and so is a DPoP proof's replay check (memory); `.mustWait` when only the `async` form can
    /// answer (then call it from a `Task`).
    func authenticateImmediately(_ request: HTTPRequest, now: Date) throws(ServiceError) -> ImmediateRead<Caller> {
        guard let verified = try verifiedImmediately(request, now: now) else { return .mustWait }
        let read: ImmediateRead<SessionStatus?>
        do {
            read = try sessions.immediateStatus(sessionID: verified.claims.sessionID)
        } catch {
            throw Self.storeUnavailable(error)
        }
        guard case .value(let status) = read else { return .mustWait }
        try Self.check(status, userID: verified.claims.subject, now: now)
        try record(verified, now: now)
        return .value(Self.caller(verified.claims, viaCookie: verified.viaCookie))
    }

    /// The same check for handlers that run in a Task: the session read suspends (SQLite hops to the store's
    /// queue, PostgreSQL waits on its connection pool within the pool's deadlines), so the cooperative thread
    /// pool never waits on the database.
    func authenticate(_ request: HTTPRequest, now: Date) async throws(ServiceError) -> Caller {
        let verified = try await verifiedRecorded(request, now: now)
        let status: SessionStatus?
        do {
            status = try await sessions.status(sessionID: verified.claims.sessionID)
        } catch {
            throw Self.storeUnavailable(error)
        }
        try Self.check(status, userID: verified.claims.subject, now: now)
        return Self.caller(verified.claims, viaCookie: verified.viaCookie)
    }

    /// The caller of `request` and the caller's customer ids, with the session check and the ids read together
    /// (`POST /stream-token`, on the event loop), when the store has them at hand; `.mustWait` otherwise.
    /// `emailAsRegistered` is `stream.emailCustomerId`: see `UserStore.customerIDs(userID:emailAsRegistered:)`.
    func authenticateWithCustomerIDsImmediately(
        _ request: HTTPRequest, now: Date, emailAsRegistered: Bool
    ) throws(ServiceError) -> ImmediateRead<CallerWithCustomerIDs> {
        guard let verified = try verifiedImmediately(request, now: now) else { return .mustWait }
        let claims = verified.claims
        let immediate: ImmediateRead<SessionRead>
        do {
            immediate = try sessions.immediateStatusAndCustomerIDs(
                sessionID: claims.sessionID, userID: claims.subject, emailAsRegistered: emailAsRegistered)
        } catch {
            throw Self.storeUnavailable(error)
        }
        guard case .value(let read) = immediate else { return .mustWait }
        try Self.check(read.status, userID: claims.subject, now: now)
        try record(verified, now: now)
        return .value(
            CallerWithCustomerIDs(
                caller: Self.caller(claims, viaCookie: verified.viaCookie), customerIDs: read.customerIDs))
    }

    /// `authenticateWithCustomerIDsImmediately` for a `Task`: the read suspends instead.
    func authenticateWithCustomerIDs(
        _ request: HTTPRequest, now: Date, emailAsRegistered: Bool
    ) async throws(ServiceError) -> CallerWithCustomerIDs {
        let verified = try await verifiedRecorded(request, now: now)
        let claims = verified.claims
        let read: SessionRead
        do {
            read = try await sessions.statusAndCustomerIDs(
                sessionID: claims.sessionID, userID: claims.subject, emailAsRegistered: emailAsRegistered)
        } catch {
            throw Self.storeUnavailable(error)
        }
        try Self.check(read.status, userID: claims.subject, now: now)
        return CallerWithCustomerIDs(
            caller: Self.caller(claims, viaCookie: verified.viaCookie), customerIDs: read.customerIDs)
    }

    /// What a request's token, and its DPoP proof when the token is bound, established; the session is not
    /// checked yet.
    struct Verified {
        let claims: AccessClaims
        /// Whether the token came from the cookie.
        let viaCookie: Bool
        /// The checked proof of a bound token (`cnf.jkt`), nil for an unbound one.
        let proof: DPoPProof?
    }

    /// The claims of the request's access token (signature, `typ`, `iss`, `aud`, times) and, for a DPoP-bound
    /// token, its checked proof (scheme, key, `htm`, `htu`, `iat`, `ath`, nonce), not yet recorded against replay.
    func verifiedClaims(_ request: HTTPRequest, now: Date) throws(ServiceError) -> Verified {
        let (credential, claims) = try verifiedToken(request, now: now)
        return try verifiedClaims(credential, claims, request, now: now)
    }

    /// The binding checks of an already verified token.
    private func verifiedClaims(
        _ credential: AccessCredential, _ claims: AccessClaims, _ request: HTTPRequest, now: Date
    ) throws(ServiceError) -> Verified {
        let proof = try dpop.checkResource(
            request, token: credential.token, scheme: credential.scheme, boundTo: claims.confirmationThumbprint,
            now: now)
        return Verified(claims: claims, viaCookie: credential.viaCookie, proof: proof)
    }

    /// `verifiedClaims` on the event loop; nil when a bound token's replay check needs the shared store (decided
    /// before the proof's signature is checked, so that the task checks it only once). The proof is recorded by
    /// ``record(_:now:)`` once the session read has answered, so that a read that must wait leaves the proof
    /// unrecorded for the task.
    func verifiedImmediately(_ request: HTTPRequest, now: Date) throws(ServiceError) -> Verified? {
        let (credential, claims) = try verifiedToken(request, now: now)
        if claims.confirmationThumbprint != nil, dpop.recordsInStore { return nil }
        return try verifiedClaims(credential, claims, request, now: now)
    }

    /// Records a verified request's proof in memory (the immediate paths run only with the memory guard).
    private func record(_ verified: Verified, now: Date) throws(ServiceError) {
        if let proof = verified.proof { _ = try dpop.recordImmediately(proof, atTokenEndpoint: false, now: now) }
    }

    /// `verifiedClaims` with the proof recorded (in the shared store on PostgreSQL).
    func verifiedRecorded(_ request: HTTPRequest, now: Date) async throws(ServiceError) -> Verified {
        let verified = try verifiedClaims(request, now: now)
        if let proof = verified.proof { try await dpop.record(proof, atTokenEndpoint: false, now: now) }
        return verified
    }

    /// The credential and the verified claims of its token; neither the binding nor the session is checked.
    func verifiedToken(_ request: HTTPRequest, now: Date) throws(ServiceError) -> (AccessCredential, AccessClaims) {
        let credential = try Self.credential(in: request)
        if credential.viaCookie, Self.isUnsafe(request.method) { try Self.checkCSRF(request) }
        do {
            return (credential, try tokens.verify(credential.token, now: now))
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

    /// The presented access token and how it came.
    ///
    /// - Throws: `.invalidRequest` (400, RFC 6750 §3.1) for two `Authorization` fields or `Bearer` or `DPoP`
    ///   without a token; `.invalidToken` for another scheme (`presented` true) or no credential at all (false).
    static func credential(in request: HTTPRequest) throws(ServiceError) -> AccessCredential {
        if let authorization = request.headers["Authorization"] {
            // One credential per request: with two, which one a proxy or a framework would pick is anybody's guess.
            guard !request.headers.isRepeated("Authorization") else {
                throw .invalidRequest("Send one Authorization header.")
            }
            if let token = token(authorization, scheme: "bearer") {
                return AccessCredential(token: token, scheme: .bearer)
            }
            if let token = token(authorization, scheme: "dpop") {
                return AccessCredential(token: token, scheme: .dpop)
            }
            if isSchemeWithoutToken(authorization) {
                throw .invalidRequest("The Authorization header names its scheme but carries no token.")
            }
            throw .invalidToken(presented: true)
        }
        if let cookie = CookieJar.value(CookieJar.accessCookie, in: request.headers), !cookie.isEmpty {
            return AccessCredential(token: cookie, scheme: .cookie)
        }
        throw .invalidToken(presented: false)
    }

    /// The token of `Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive), or nil.
    static func bearerToken(_ authorization: String) -> String? {
        token(authorization, scheme: "bearer")
    }

    /// The token of `<scheme> <token>` (`scheme` in lower case: `bearer`, `dpop`; matched in any letter case),
    /// or nil.
    ///
    /// Works on the UTF-8 bytes (no splitting or lowercasing): this runs on every authenticated request.
    static func token(_ authorization: String, scheme: String) -> String? {
        let utf8 = authorization.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex, utf8[index] == UInt8(ascii: " ") { index = utf8.index(after: index) }
        for expected in scheme.utf8 {
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

    /// Whether `authorization` is the word `Bearer` or `DPoP` (any letter case) with nothing but blanks after it.
    static func isSchemeWithoutToken(_ authorization: String) -> Bool {
        let words = authorization.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return words.count == 1 && ["bearer", "dpop"].contains(words[0].lowercased())
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
