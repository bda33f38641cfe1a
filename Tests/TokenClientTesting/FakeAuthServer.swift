public import AuthAPI
public import Foundation
public import TokenClientCore

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLError
#endif

/// An in-process stand-in for tokenvend behind the ``HTTPTransport`` seam: issues numbered tokens, records
/// every request, and can be told to fail in the ways the tests need.
public final class FakeAuthServer: HTTPTransport {
    public struct Recorded: Sendable {
        public var method: String
        public var path: String
        public var query: String?
        public var authorization: String?
        public var authStrategy: String?
        public var body: Data?
        /// The request's `timeoutInterval`.
        public var timeoutInterval: TimeInterval
        /// Whether the body was a stream (a `URLRequest`'s `httpBodyStream`, which the session never replays).
        public var hasBodyStream: Bool
        /// The `DPoP` proof header, if any.
        public var dpop: String? = nil
    }

    public struct State {
        public var requests: [Recorded] = []
        public var issued = 0
        public var validAccess: Set<String> = []
        public var liveRefresh: String?
        public var accessExpiresIn = 900
        public var refreshFailure: (status: Int, code: ErrorCode)?
        public var rejectEveryAccessToken = false
        public var logoutStatus = 204
        public var mossIssued = 0
        public var mossExpiresIn = 300
        public var mossFailure: (status: Int, code: ErrorCode)?
        public var streamIssued = 0
        public var streamTTL = 900
        public var streamOmitsExp = false
        public var gates: [String: Gate] = [:]
        /// The `created` of an accepted `POST /auth/idtoken`; `nil` leaves it out (a server that is not tokenvend).
        public var signInCreates: Bool? = true
        /// Like the server's `identity.requireServerNonce` (on by default): `POST /auth/idtoken` accepts only a
        /// nonce of ``State/pendingNonces`` and consumes it; without one, or with another, 401 `invalid_grant`.
        public var requireServerNonce = true
        /// The nonces `POST /auth/nonce` issued (`nonce-1`, `nonce-2`, …) and no sign-in consumed yet.
        public var pendingNonces: Set<String> = []
        public var noncesIssued = 0
        /// The one code `POST /auth/token` accepts (once); any other, or a second use, is 400 `invalid_grant` in
        /// the RFC 6749 §5.2 shape.
        public var authorizationCode = "fake-code"
        public var authorizationCodeUsed = false
        /// The vendors `POST /vend/<name>` knows; any other name is 404 `not_found`.
        public var vendors: [String: FakeVendor] = [:]
        public var vendIssued = 0
        /// Sent as `Retry-After` (seconds) with every 429 and 503 answer; `nil` sends none.
        public var retryAfter: Int?
        /// The refresh token the live one replaced, and when: presented again within ``graceSeconds`` it converges
        /// on the live pair, like the server's reuse grace window.
        public var parentRefresh: String?
        public var rotatedAt: Date?
        /// The access token of the live pair (what a converging refresh answers with).
        public var liveAccess: String?
        /// Refresh tokens rotated away since the last login: presenting one outside the grace window revokes
        /// every token of the session.
        public var spentRefresh: Set<String> = []
        /// The server's `refreshToken.reuseGraceSeconds` (10 by default, like the server).
        public var graceSeconds: TimeInterval = 10
        /// Refresh-token reuse detected (and the session revoked) so far.
        public var reuseDetected = 0
        /// The refresh token's lifetime in seconds, for `refreshExpiresAt`.
        public var refreshExpiresIn = 30 * 86_400
        /// The next this many refreshes rotate, then lose the answer: the transport throws instead.
        public var refreshAnswersToLose = 0
        /// The next this many refreshes answer ``refreshOutageStatus`` `unavailable` without rotating, with
        /// `Retry-After: refreshRetryAfter` when set.
        public var refreshOutages = 0
        public var refreshOutageStatus = 503
        public var refreshRetryAfter: Int?
        /// Paths a "proxy" answers 401 for, with an HTML body and no `WWW-Authenticate` (not the server's own 401);
        /// `"*"` means every path.
        public var proxyRejectedPaths: Set<String> = []
        /// Paths whose requests never reach the server: the transport throws at once; `"*"` means every path.
        public var unreachablePaths: Set<String> = []
        /// The user each access token was issued to (``FakeAuthServer/user`` when absent).
        public var accessOwners: [String: User] = [:]
        /// The email-code endpoints' state (FakeAuthServer+Email.swift).
        public var email = FakeEmailState()
        /// The deletion endpoints' state (FakeAuthServer+AccountDeletion.swift).
        public var deletion = FakeDeletionState()
        /// DPoP (FakeAuthServer+DPoP.swift).
        public var dpop = FakeDPoPState()
        /// Passkeys (FakeAuthServer+Passkeys.swift).
        public var passkeys = FakePasskeyState()
    }

    public static let user = User(id: "u-1", email: email, role: "user", tenantID: nil)
    /// The fake user's email.
    public static let email = "ada@example.com"
    public static let password = "correct horse"
    /// The one ID token `POST /auth/idtoken` accepts.
    public static let idToken = "eyJ.fake-id-token.sig"
    /// A second account: `POST /auth/login` with its email and ``password`` signs it in.
    public static let otherUser = User(id: "u-2", email: "grace@example.com", role: "user", tenantID: nil)
    /// The users `POST /auth/login` knows, by email.
    public static let users = [email: user, "grace@example.com": otherUser]

    public let clock: TestClock
    package let state = Locked(State())

    public init(clock: TestClock = TestClock()) {
        self.clock = clock
    }

    public var requests: [Recorded] { state.withLock { $0.requests } }

    public func count(_ path: String) -> Int { requests.filter { $0.path == path }.count }

    /// Changes the server's knobs.
    public func configure(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    /// Makes every access token issued so far fail with 401 `invalid_token`.
    public func revokeAccessTokens() { state.withLock { $0.validAccess.removeAll() } }

    /// Requests to `path` wait at the returned gate until the test opens it.
    public func gate(_ path: String) -> Gate {
        let gate = Gate()
        state.withLock { $0.gates[path] = gate }
        return gate
    }

    public func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        let url = request.url
        let recorded = Recorded(
            method: request.method,
            path: url.path,
            query: url.query,
            authorization: request.value(forHTTPHeaderField: "Authorization"),
            authStrategy: request.value(forHTTPHeaderField: "X-Auth-Strategy"),
            body: request.body,
            timeoutInterval: request.timeoutInterval,
            hasBodyStream: !request.isReplayable,
            dpop: request.value(forHTTPHeaderField: "DPoP")
        )
        let proof = recorded.dpop.flatMap { Self.decodeProof($0, path: recorded.path) }
        let (gate, unreachable, proxied) = state.withLock {
            $0.requests.append(recorded)
            if let proof { $0.dpop.proofs.append(proof) }
            return (
                $0.gates[recorded.path], Self.matches($0.unreachablePaths, recorded.path),
                Self.matches($0.proxyRejectedPaths, recorded.path)
            )
        }
        if unreachable { throw URLError(.cannotConnectToHost) }
        if let gate { try await gate.enter() }
        if proxied { return Self.proxyUnauthorized(url) }
        var (status, body, extra) = try dpopPrecheck(recorded, proof: proof) ?? answer(recorded)
        body = dpopBind(recorded, proof: proof, status: status, body: body)
        if extra[HeaderName.dpopNonce] == nil, let nonce = state.withLock({ $0.dpop.advertisedNonce }) {
            extra[HeaderName.dpopNonce] = nonce
        }
        var headers = extra
        if status == 429 || status == 503, headers["Retry-After"] == nil,
            let seconds = state.withLock({ $0.retryAfter })
        {
            headers["Retry-After"] = String(seconds)
        }
        if status == 401, let challenge = Self.challenge(body, presented: recorded.authorization != nil) {
            headers["WWW-Authenticate"] = challenge
        }
        return (body, TransportResponse(statusCode: status, headerFields: headers, url: url))
    }

    private func answer(_ request: Recorded) throws -> (Int, Data, [String: String]) {
        if request.method == "POST", request.path == "/auth/refresh" { return try refreshAnswer(request) }
        let (status, body) = route(request)
        return (status, body, [:])
    }

    private func route(_ request: Recorded) -> (Int, Data) {
        switch (request.method, request.path) {
        case ("POST", "/auth/login"): return login(request)
        case ("POST", "/auth/nonce"): return issueNonce()
        case ("POST", "/auth/idtoken"): return signIn(request)
        case ("POST", "/auth/token"): return exchangeCode(request)
        case ("POST", "/auth/logout"): return (state.withLock { $0.logoutStatus }, Data())
        case ("GET", "/auth/me"):
            guard authorized(request) else { return Self.error(401, .invalidToken) }
            let user = owner(of: request)
            return (200, Self.json(MeResponse(sub: user.id, email: user.email, role: user.role)))
        case ("GET", "/moss-token"): return moss(request)
        case ("POST", "/stream-token"): return stream(request)
        case ("POST", let path) where path.hasPrefix("/vend/"): return vend(request, vendor: String(path.dropFirst(6)))
        case ("POST", let path) where path.hasPrefix("/auth/email/") || path.hasPrefix("/auth/password/"):
            return emailFlow(request)
        case (_, let path) where path == "/auth/passkeys" || path.hasPrefix("/auth/passkeys/"):
            return passkeyRoute(request)
        case ("DELETE", "/auth/account"): return deleteAccount(request)
        case ("POST", "/auth/account/deletion"), ("POST", "/auth/account/deletion/confirm"):
            return accountDeletionByEmail(request)
        default: return Self.error(404, .notFound)
        }
    }

    func authorized(_ request: Recorded) -> Bool {
        guard let (scheme, token) = Self.presented(request),
            presentsTokenCorrectly(request, token: token, scheme: scheme)
        else { return false }
        return state.withLock { !$0.rejectEveryAccessToken && $0.validAccess.contains(token) }
    }

    /// The scheme (`Bearer` or `DPoP`) and the token of the request's `Authorization`.
    static func presented(_ request: Recorded) -> (String, String)? {
        guard let header = request.authorization else { return nil }
        for scheme in ["Bearer", "DPoP"] where header.hasPrefix(scheme + " ") {
            return (scheme, String(header.dropFirst(scheme.count + 1)))
        }
        return nil
    }

    /// The user the request's access token was issued to.
    func owner(of request: Recorded) -> User {
        let token = Self.presented(request)?.1 ?? ""
        return state.withLock { $0.accessOwners[token] } ?? Self.user
    }

    /// Starts a new session (a sign-in): a fresh pair, and no spent tokens or parent to converge on.
    func signInPair(_ state: inout State, user: User = FakeAuthServer.user) -> TokenResponse {
        state.parentRefresh = nil
        state.rotatedAt = nil
        state.spentRefresh = []
        return issuePair(&state, user: user)
    }

    func issuePair(_ state: inout State, user: User) -> TokenResponse {
        state.issued += 1
        let access = "access-\(state.issued)"
        let refresh = "refresh-\(state.issued)"
        state.validAccess.insert(access)
        state.accessOwners[access] = user
        state.liveRefresh = refresh
        state.liveAccess = access
        return Self.pair(access: access, refresh: refresh, user: user, state: state, now: clock.now)
    }

    private func login(_ request: Recorded) -> (Int, Data) {
        guard let body = request.body, let login = try? JSONDecoder().decode(LoginRequest.self, from: body),
            login.password == Self.password
        else { return Self.error(401, .invalidCredentials) }
        let user = Self.users[login.email] ?? Self.user
        return (200, Self.json(state.withLock { signInPair(&$0, user: user) }))
    }

    /// `POST /auth/nonce`: `{"nonce": "nonce-<n>", "expiresIn": 600}`, remembered until a sign-in consumes it.
    private func issueNonce() -> (Int, Data) {
        state.withLock { state in
            state.noncesIssued += 1
            let nonce = "nonce-\(state.noncesIssued)"
            state.pendingNonces.insert(nonce)
            return (200, Self.json(NonceResponse(nonce: nonce, expiresIn: 600)))
        }
    }

    /// `POST /auth/idtoken`: ``idToken`` signs in (``signInCreates`` tells `created`), any other token is 401
    /// `invalid_grant`; with ``State/requireServerNonce``, so is a nonce that is not pending (consumed either way).
    private func signIn(_ request: Recorded) -> (Int, Data) {
        guard let body = request.body, let signIn = try? JSONDecoder().decode(IDTokenSignInRequest.self, from: body)
        else { return Self.error(400, .invalidRequest) }
        guard signIn.idToken == Self.idToken else { return Self.error(401, .invalidGrant) }
        return state.withLock { state in
            if state.requireServerNonce {
                guard let nonce = signIn.nonce, state.pendingNonces.remove(nonce) != nil else {
                    return Self.error(401, .invalidGrant)
                }
            }
            var answer = signInPair(&state)
            answer.created = state.signInCreates
            return (200, Self.json(answer))
        }
    }

    /// `POST /auth/token`: ``State/authorizationCode`` signs in once (``signInCreates`` tells `created`); errors
    /// are `{"error", "error_description"}`.
    private func exchangeCode(_ request: Recorded) -> (Int, Data) {
        guard let body = request.body,
            let grant = try? JSONSerialization.jsonObject(with: body) as? [String: String],
            grant["grant_type"] == "authorization_code", let code = grant["code"], grant["code_verifier"] != nil,
            grant["redirect_uri"] != nil
        else { return (400, Data(#"{"error":"invalid_request","error_description":"test"}"#.utf8)) }
        return state.withLock { state in
            guard code == state.authorizationCode, !state.authorizationCodeUsed else {
                return (400, Data(#"{"error":"invalid_grant","error_description":"the code is not valid"}"#.utf8))
            }
            state.authorizationCodeUsed = true
            var answer = signInPair(&state)
            answer.created = state.signInCreates
            return (200, Self.json(answer))
        }
    }

    private func moss(_ request: Recorded) -> (Int, Data) {
        guard authorized(request) else { return Self.error(401, .invalidToken) }
        return state.withLock { state in
            if let failure = state.mossFailure { return Self.error(failure.status, failure.code) }
            state.mossIssued += 1
            return (200, Self.json(VendedToken(token: "moss-\(state.mossIssued)", expiresIn: state.mossExpiresIn)))
        }
    }

    private func stream(_ request: Recorded) -> (Int, Data) {
        guard authorized(request) else { return Self.error(401, .invalidToken) }
        let asked = request.body.flatMap { try? JSONDecoder().decode(StreamTokenRequest.self, from: $0) }
        let ids = asked?.customerIDs ?? ["registered": Self.email]
        guard ids.allSatisfy({ $0.key == "registered" && $0.value == Self.email }) else {
            return Self.error(403, .insufficientScope)
        }
        let now = Int(clock.now.timeIntervalSince1970)
        return state.withLock { state in
            state.streamIssued += 1
            var claims: [String: any Sendable] = ["iat": now, "ids": ids, "n": state.streamIssued]
            if !state.streamOmitsExp { claims["exp"] = now + state.streamTTL }
            let token = Self.jws(claims)
            return (200, Self.json(VendedToken(token: token, expiresIn: state.streamTTL)))
        }
    }

    /// A compact JWS with a dummy signature; the client only reads the payload.
    public static func jws(_ claims: [String: any Sendable]) -> String {
        let header = #"{"alg":"HS512","typ":"JWT","kid":"s1"}"#
        let payload = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
        return [Data(header.utf8), payload, Data("signature".utf8)].map(base64URL).joined(separator: ".")
    }

    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func json(_ value: some Encodable) -> Data {
        (try? JSONEncoder().encode(value)) ?? Data()
    }

    public static func error(_ status: Int, _ code: ErrorCode) -> (Int, Data) {
        (status, json(ErrorBody(error: code, message: "test \(code)")))
    }
}
