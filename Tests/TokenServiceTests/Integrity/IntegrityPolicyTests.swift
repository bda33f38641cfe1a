import AppIntegrity
import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// The per-route app-integrity policy (issue 34) on a real server: `off`, `report` and `require` on
/// `/vend/{vendor}` and `/auth/login`, the per-vendor override, the other route families, and debug tokens.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct IntegrityPolicyTests {
    static let secret = "ci-simulator-secret"
    /// `printf %s ci-simulator-secret | sha256sum`.
    static let secretHash = "5c1c7c5ac8e2c52eede244efa05301bd845f2b2c889a706b61be899ba507526c"

    static func vendors(_ extra: String = "") -> String {
        #"""
        {"chat": {"preset": "stream-chat", "apiKey": "chat-key", "apiSecret": "integrity-policy-secret-chat-0123456789abcdef"\#(extra)},
         "open": {"preset": "stream-chat", "apiKey": "open-key", "apiSecret": "integrity-policy-secret-open-0123456789abcdef",
                  "integrity": "off"}}
        """#
    }

    static func environment(_ routes: [String: String], debug: Bool = true) -> [String: String] {
        var environment = [
            "TOKENVEND_VENDORS": vendors(),
            "TOKENVEND_INTEGRITY_DEBUG_TOKENS": #"["\#(secretHash)"]"#,
            "TOKENVEND_INTEGRITY_ALLOW_DEBUG_TOKENS": debug ? "true" : "false",
        ]
        if !debug {
            // Something must be able to pass for `require` to start: an App Check project nobody calls here.
            environment["TOKENVEND_INTEGRITY_FIREBASE_PROJECT_NUMBER"] = "1234567890"
            environment["TOKENVEND_INTEGRITY_FIREBASE_APP_IDS"] = #"["1:1234567890:ios:abc"]"#
            environment["TOKENVEND_INTEGRITY_FIREBASE_JWKS_URL"] = "http://127.0.0.1:9/jwks"
            environment["TOKENVEND_INTEGRITY_DEBUG_TOKENS"] = nil
        }
        for (route, mode) in routes { environment["TOKENVEND_INTEGRITY_ROUTES_\(route.uppercased())"] = mode }
        return environment
    }

    static let debugHeader = ["X-App-Integrity": "debug:\(secret)"]

    @Test("off (the default) ignores the headers and counts nothing")
    func offServesEverything() async throws {
        try await withTestServer(mode: .router, environment: ["TOKENVEND_VENDORS": Self.vendors()]) { server in
            let user = try await server.signUp()
            let vend = try await server.request(
                "POST", "/vend/chat", headers: user.bearer.merging(["X-App-Integrity": "garbage"]) { $1 })
            #expect(vend.status == 200)
            #expect(server.server.metrics.integrity.checks(.vend, failed: .malformed) == 0)
            #expect(server.server.metrics.integrity.checks(.vend) == 0)
        }
    }

    @Test("report serves a request without a token or with a bad one, and counts each with its reason")
    func reportServesAndCounts() async throws {
        try await withTestServer(mode: .router, environment: Self.environment(["vend": "report", "login": "report"])) {
            server in
            let user = try await server.signUp()
            #expect(try await server.request("POST", "/vend/chat", headers: user.bearer).status == 200)
            #expect(server.server.metrics.integrity.checks(.vend, failed: .missing) == 1)
            let bad = user.bearer.merging(["X-App-Integrity": "debug:wrong"]) { $1 }
            #expect(try await server.request("POST", "/vend/chat", headers: bad).status == 200)
            #expect(server.server.metrics.integrity.checks(.vend, failed: .debugUnknown) == 1)
            let good = user.bearer.merging(Self.debugHeader) { $1 }
            #expect(try await server.request("POST", "/vend/chat", headers: good).status == 200)
            #expect(server.server.metrics.integrity.checks(.vend) == 1)
            _ = try await server.logIn(email: user.email)
            // The sign-up's login and this one.
            #expect(server.server.metrics.integrity.checks(.login, failed: .missing) == 2)
            #expect(server.logs().contains("integrity check failed"))
        }
    }

    @Test("require refuses a vend without a token (integrity_required) or with a bad one (integrity_invalid)")
    func requireOnVend() async throws {
        try await withTestServer(mode: .router, environment: Self.environment(["vend": "require"])) { server in
            let user = try await server.signUp()
            let missing = try await server.request("POST", "/vend/chat", headers: user.bearer)
            #expect(missing.status == 401 && missing.errorCode == "integrity_required")
            #expect(missing.headers["www-authenticate"] == #"AppIntegrity realm="tokenvend""#)
            // Before authentication: a script without a session meets the integrity check first.
            let anonymous = try await server.request("POST", "/vend/chat")
            #expect(anonymous.errorCode == "integrity_required")
            var bodies: Set<String> = []
            for value in ["debug:wrong", "x", String(repeating: "a", count: 9000), user.accessToken] {
                let headers = user.bearer.merging(["X-App-Integrity": value]) { $1 }
                let refused = try await server.request("POST", "/vend/chat", headers: headers)
                #expect(refused.status == 401 && refused.errorCode == "integrity_invalid")
                #expect(refused.headers["www-authenticate"] == #"AppIntegrity realm="tokenvend""#)
                bodies.insert(refused.text)
            }
            #expect(bodies.count == 1, "one body for every reason")
            // An access token is not an integrity token.
            #expect(server.server.metrics.integrity.checks(.vend, failed: .tokenType) == 1)
            #expect(server.server.metrics.integrity.checks(.vend, failed: .malformed) >= 1)
            let served = try await server.request(
                "POST", "/vend/chat", headers: user.bearer.merging(Self.debugHeader) { $1 })
            #expect(served.status == 200)
            // The vendor that turns it off is served without a token; the integrity check does not replace
            // authentication.
            #expect(try await server.request("POST", "/vend/open", headers: user.bearer).status == 200)
            #expect(try await server.request("POST", "/vend/open").status == 401)
            let unauthenticated = try await server.request("POST", "/vend/chat", headers: Self.debugHeader)
            #expect(unauthenticated.status == 401 && unauthenticated.errorCode == "invalid_token")
        }
    }

    @Test("a vendor's own integrity: require gates it while the vend route is off")
    func vendorOverride() async throws {
        let environment = [
            "TOKENVEND_VENDORS": Self.vendors(#", "integrity": "require""#),
            "TOKENVEND_INTEGRITY_DEBUG_TOKENS": #"["\#(Self.secretHash)"]"#,
            "TOKENVEND_INTEGRITY_ALLOW_DEBUG_TOKENS": "true",
        ]
        try await withTestServer(mode: .router, environment: environment) { server in
            let user = try await server.signUp()
            let refused = try await server.request("POST", "/vend/chat", headers: user.bearer)
            #expect(refused.errorCode == "integrity_required")
            #expect(try await server.request("POST", "/vend/open", headers: user.bearer).status == 200)
            let served = try await server.request(
                "POST", "/vend/chat", headers: user.bearer.merging(Self.debugHeader) { $1 })
            #expect(served.status == 200)
        }
    }

    @Test("require on login refuses a sign-in without a token; with one it signs in")
    func requireOnLogin() async throws {
        try await withTestServer(mode: .router, environment: Self.environment(["login": "require"])) { server in
            let email = "integrity-\(UUID().uuidString.prefix(8))@example.com"
            let body = #"{"email":"\#(email)","password":"\#(TestServer.password)"}"#
            #expect(try await server.request("POST", "/auth/register", json: body).status == 201)
            let refused = try await server.request("POST", "/auth/login", json: body)
            #expect(refused.status == 401 && refused.errorCode == "integrity_required")
            let login = try await server.logIn(email: email, headers: Self.debugHeader)
            #expect(!login.accessToken.isEmpty)
            // Other sign-ins with a credential the user holds are the same family.
            let code = try await server.request(
                "POST", "/auth/email/code/confirm", json: #"{"email":"\#(email)","code":"123456"}"#)
            #expect(code.errorCode == "integrity_required")
            let reset = try await server.request(
                "POST", "/auth/password/reset/confirm",
                json: #"{"email":"\#(email)","code":"123456","newPassword":"another long password"}"#)
            #expect(reset.errorCode == "integrity_required")
        }
    }

    @Test("register, idtoken, token, refresh, stream and moss are each gated by their own route")
    func everyRouteFamilyIsGated() async throws {
        let routes = ["register", "idtoken", "refresh", "stream", "moss"]
        try await withTestServer(
            mode: .router,
            environment: Self.environment(Dictionary(uniqueKeysWithValues: routes.map { ($0, "require") }))
        ) { server in
            let cases: [(String, String, String?)] = [
                ("POST", "/auth/register", #"{"email":"a@example.com","password":"\#(TestServer.password)"}"#),
                ("POST", "/auth/idtoken", #"{"provider":"google","idToken":"x"}"#),
                ("POST", "/auth/token", nil),
                ("POST", "/auth/refresh", #"{"refreshToken":"x"}"#),
                ("POST", "/stream-token", nil),
                ("GET", "/moss-token", nil),
            ]
            for (method, path, body) in cases {
                let refused = try await server.request(method, path, json: body)
                #expect(refused.status == 401 && refused.errorCode == "integrity_required", "\(path)")
            }
            // Login stays off here: signing in works without a token, then the session's calls are gated.
            let registered = try await server.request(
                "POST", "/auth/register", headers: Self.debugHeader,
                json: #"{"email":"b@example.com","password":"\#(TestServer.password)"}"#)
            #expect(registered.status == 201)
            let login = try await server.logIn(email: "b@example.com")
            let stream = try await server.request(
                "POST", "/stream-token", headers: login.bearer.merging(Self.debugHeader) { $1 })
            #expect(stream.status == 200)
            let refreshed = try await server.request(
                "POST", "/auth/refresh", headers: Self.debugHeader.merging(["X-Auth-Strategy": "bearer"]) { $1 },
                json: #"{"refreshToken":"\#(login.refreshToken)"}"#)
            #expect(refreshed.status == 200)
        }
    }

    @Test("debug tokens are refused while integrity.allowDebugTokens is false, even for a listed secret")
    func debugTokensOff() async throws {
        var environment = Self.environment(["vend": "require"], debug: false)
        environment["TOKENVEND_INTEGRITY_DEBUG_TOKENS"] = #"["\#(Self.secretHash)"]"#
        try await withTestServer(mode: .router, environment: environment) { server in
            let user = try await server.signUp()
            let refused = try await server.request(
                "POST", "/vend/chat", headers: user.bearer.merging(Self.debugHeader) { $1 })
            #expect(refused.status == 401 && refused.errorCode == "integrity_invalid")
            #expect(server.server.metrics.integrity.checks(.vend, failed: .debugDisabled) == 1)
            #expect(!server.logs().contains("integrity.allowDebugTokens is on"))
        }
    }

    @Test("allowing debug tokens warns at startup")
    func debugTokensWarn() async throws {
        try await withTestServer(mode: .router, environment: Self.environment(["vend": "report"])) { server in
            #expect(server.logs().contains("integrity.allowDebugTokens is on"))
        }
    }
}
