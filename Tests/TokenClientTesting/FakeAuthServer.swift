public import AuthAPI
public import Foundation
public import TokenClient

#if canImport(FoundationNetworking)
    public import FoundationNetworking
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
        /// The one code `POST /auth/token` accepts (once); any other, or a second use, is 400 `invalid_grant` in
        /// the RFC 6749 §5.2 shape.
        public var authorizationCode = "fake-code"
        public var authorizationCodeUsed = false
        /// The vendors `POST /vend/<name>` knows; any other name is 404 `not_found`.
        public var vendors: [String: FakeVendor] = [:]
        public var vendIssued = 0
        /// Sent as `Retry-After` (seconds) with every 429 and 503 answer; `nil` sends none.
        public var retryAfter: Int?
    }

    public static let user = User(id: "u-1", email: email, role: "user", tenantId: nil)
    /// The fake user's email.
    public static let email = "ada@example.com"
    public static let password = "correct horse"
    /// The one ID token `POST /auth/idtoken` accepts.
    public static let idToken = "eyJ.fake-id-token.sig"

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

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else { throw TokenClientError.invalidResponse }
        let recorded = Recorded(
            method: request.httpMethod ?? "GET",
            path: url.path,
            query: url.query,
            authorization: request.value(forHTTPHeaderField: "Authorization"),
            authStrategy: request.value(forHTTPHeaderField: "X-Auth-Strategy"),
            body: request.httpBody
        )
        let gate = state.withLock {
            $0.requests.append(recorded)
            return $0.gates[recorded.path]
        }
        if let gate { await gate.pass() }
        let (status, body) = route(recorded)
        var headers: [String: String] = [:]
        if status == 429 || status == 503, let seconds = state.withLock({ $0.retryAfter }) {
            headers["Retry-After"] = String(seconds)
        }
        guard
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw TokenClientError.invalidResponse }
        return (body, response)
    }

    private func route(_ request: Recorded) -> (Int, Data) {
        switch (request.method, request.path) {
        case ("POST", "/auth/login"): return login(request)
        case ("POST", "/auth/idtoken"): return signIn(request)
        case ("POST", "/auth/token"): return exchangeCode(request)
        case ("POST", "/auth/refresh"): return refresh(request)
        case ("POST", "/auth/logout"): return (state.withLock { $0.logoutStatus }, Data())
        case ("GET", "/auth/me"):
            guard authorized(request) else { return Self.error(401, .invalidToken) }
            let me = MeResponse(sub: Self.user.id, email: Self.user.email, role: Self.user.role)
            return (200, Self.json(me))
        case ("GET", "/moss-token"): return moss(request)
        case ("POST", "/stream-token"): return stream(request)
        case ("POST", let path) where path.hasPrefix("/vend/"): return vend(request, vendor: String(path.dropFirst(6)))
        default: return Self.error(404, .notFound)
        }
    }

    func authorized(_ request: Recorded) -> Bool {
        guard let header = request.authorization, header.hasPrefix("Bearer ") else { return false }
        let token = String(header.dropFirst("Bearer ".count))
        return state.withLock { !$0.rejectEveryAccessToken && $0.validAccess.contains(token) }
    }

    private func issuePair(_ state: inout State) -> TokenResponse {
        state.issued += 1
        let access = "access-\(state.issued)"
        let refresh = "refresh-\(state.issued)"
        state.validAccess.insert(access)
        state.liveRefresh = refresh
        return .bearer(accessToken: access, refreshToken: refresh, expiresIn: state.accessExpiresIn, user: Self.user)
    }

    private func login(_ request: Recorded) -> (Int, Data) {
        guard let body = request.body, let login = try? JSONDecoder().decode(LoginRequest.self, from: body),
            login.password == Self.password
        else { return Self.error(401, .invalidCredentials) }
        return (200, Self.json(state.withLock { issuePair(&$0) }))
    }

    /// `POST /auth/idtoken`: ``idToken`` signs in (``signInCreates`` tells `created`), any other token is 401
    /// `invalid_grant`.
    private func signIn(_ request: Recorded) -> (Int, Data) {
        guard let body = request.body, let signIn = try? JSONDecoder().decode(IDTokenSignInRequest.self, from: body)
        else { return Self.error(400, .invalidRequest) }
        guard signIn.idToken == Self.idToken else { return Self.error(401, .invalidGrant) }
        return state.withLock { state in
            var answer = issuePair(&state)
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
            var answer = issuePair(&state)
            answer.created = state.signInCreates
            return (200, Self.json(answer))
        }
    }

    private func refresh(_ request: Recorded) -> (Int, Data) {
        guard let body = request.body, let refresh = try? JSONDecoder().decode(RefreshRequest.self, from: body)
        else { return Self.error(400, .invalidRequest) }
        return state.withLock { state in
            if let failure = state.refreshFailure { return Self.error(failure.status, failure.code) }
            guard refresh.refreshToken == state.liveRefresh else { return Self.error(401, .invalidGrant) }
            return (200, Self.json(issuePair(&state)))
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
        let ids = asked?.customerIds ?? ["registered": Self.email]
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
