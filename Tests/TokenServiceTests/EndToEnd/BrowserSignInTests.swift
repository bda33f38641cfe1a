import Cryptography
import Foundation
import JWT
import Synchronization
import Testing
import TokenService
import TokenServiceTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The browser sign-in end to end: the real server on a loopback port (port 0), a fake OpenID Connect provider
/// (``FakeOIDCProvider``) on another, and every redirect followed by hand, as a browser would.
@Suite(.tags(.integration), .timeLimit(.minutes(2)))
struct BrowserSignInTests {
    static let app = "com.example.app:/oauth"
    static let loopback = "http://127.0.0.1/cb"
    static let secret = "fake-client-secret-value"

    /// A server whose provider `fake` is `provider`, found through discovery.
    static func environment(
        _ provider: FakeOIDCProvider, members: String = #""clientSecret":"\#(secret)""#,
        extra: [String: String] = [:]
    ) -> [String: String] {
        let providers =
            #"{"fake":{"clientId":"\#(provider.clientID)",\#(members),"discoveryURL":"\#(provider.discoveryURL)","#
            + #""algorithms":["ES256"],"redirectURIs":["\#(app)","\#(loopback)","https://app.example/cb?x=1"]}}"#
        return [
            "TOKENVEND_SERVER_PUBLIC_URL": "http://127.0.0.1:9", "TOKENVEND_IDENTITY_PROVIDERS": providers,
        ].merging(extra) { $1 }
    }

    static func withBrowserSignIn(
        client: FakeOIDCProvider.ClientCheck = .secret(secret), members: String = #""clientSecret":"\#(secret)""#,
        extra: [String: String] = [:], now: (@Sendable () -> Date)? = nil,
        _ body: (TestServer, FakeOIDCProvider) async throws -> Void
    ) async throws {
        let provider = try FakeOIDCProvider(client: client)
        do {
            try await withTestServer(environment: environment(provider, members: members, extra: extra), now: now) {
                try await body($0, provider)
            }
            await provider.shutdown()
        } catch {
            await provider.shutdown()
            throw error
        }
    }

    /// A PKCE pair: a fresh verifier and its S256 challenge.
    static func pkce() throws -> (verifier: String, challenge: String) {
        let verifier = Base64URL.encode(try SecureRandom.bytes(count: 32))
        return (verifier, Base64URL.encode(try SHA256.hash(Array(verifier.utf8))))
    }

    static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\(FakeOIDCProvider.encode($0.1))" }.joined(separator: "&")
    }

    /// The query parameters of a URL string.
    /// A self-registered account whose email the operator verified, and the provider's next user: `subject`, with
    /// that email (a candidate for linking).
    static func operatorVerifiedAccount(
        _ server: TestServer, _ provider: FakeOIDCProvider, subject: String
    ) async throws -> Login {
        let existing = try await server.signUp()
        let accounts = try await AccountAdministration.open(configuration: server.configuration)
        defer { accounts.close() }
        try await accounts.verifyEmail(email: existing.email)
        provider.update { $0.user = .init(subject: subject, email: existing.email) }
        return existing
    }

    /// The parameters of the redirect back to the app, the whole trip retried until `accepted` holds: on
    /// PostgreSQL an operator's change (a verified email) comes from another store.
    static func tripAfterStoreChange(
        _ server: TestServer, challenge: String, until accepted: ([String: String]) -> Bool
    ) async throws -> [String: String] {
        try await TestBackend.afterOtherStoreChange {
            parameters(try await trip(server, challenge: challenge).final?.headers["location"] ?? "")
        } until: {
            accepted($0)
        }
    }

    static func parameters(_ url: String) -> [String: String] {
        guard let index = url.firstIndex(of: "?") else { return [:] }
        return FakeOIDCProvider.form(String(url[url.index(after: index)...]))
    }

    /// `GET url` on the provider without following its redirect.
    static func get(_ url: String) async throws -> (status: Int, location: String?) {
        let answer = try await NoRedirects.send("GET", url)
        return (answer.status, answer.headers["location"])
    }

    /// One request to tokenvend, never following a redirect.
    static func call(
        _ server: TestServer, _ method: String, _ path: String, headers: [String: String] = [:], json: String? = nil
    ) async throws -> TestResponse {
        var headers = headers
        if json != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return try await NoRedirects.send(
            method, "http://127.0.0.1:\(server.port)\(path)", headers: headers, body: json)
    }

    /// One browser trip: tokenvend's start, the provider's authorize, tokenvend's callback. Returns tokenvend's
    /// last answer (a redirect to the app, or an error).
    struct Trip {
        var start: TestResponse
        var callbackTarget: String?
        var final: TestResponse?
    }

    static func trip(
        _ server: TestServer, challenge: String, redirectURI: String = app, state: String = "app-state-1",
        method: String = "S256", beforeCallback: () async throws -> Void = {}
    ) async throws -> Trip {
        let start = try await call(
            server,
            "GET",
            "/auth/oauth/fake?"
                + query([
                    ("redirect_uri", redirectURI), ("code_challenge", challenge), ("code_challenge_method", method),
                    ("state", state),
                ]))
        guard start.status == 302, let authorize = start.headers["location"] else {
            return Trip(start: start)
        }
        let provider = try await get(authorize)
        let back = try #require(provider.location)
        #expect(back.hasPrefix("http://127.0.0.1:9/auth/oauth/fake/callback?"))
        let target = String(back.dropFirst("http://127.0.0.1:9".count))
        try await beforeCallback()
        return Trip(start: start, callbackTarget: target, final: try await call(server, "GET", target))
    }

    static func exchange(
        _ server: TestServer, code: String, verifier: String, redirectURI: String = app,
        headers: [String: String] = [:]
    ) async throws -> TestResponse {
        let body =
            #"{"grant_type":"authorization_code","code":"\#(code)","code_verifier":"\#(verifier)","#
            + #""redirect_uri":"\#(redirectURI)"}"#
        return try await call(server, "POST", "/auth/token", headers: headers, json: body)
    }

    /// A whole sign-in up to the app's code; returns the app redirect's parameters.
    static func signIn(_ server: TestServer, redirectURI: String = app) async throws -> (
        code: String, verifier: String
    ) {
        let (verifier, challenge) = try pkce()
        let trip = try await trip(server, challenge: challenge, redirectURI: redirectURI)
        let final = try #require(trip.final)
        #expect(final.status == 302)
        let location = try #require(final.headers["location"])
        #expect(location.hasPrefix(redirectURI + (redirectURI.contains("?") ? "&" : "?")))
        let parameters = parameters(location)
        #expect(parameters["state"] == "app-state-1")
        return (try #require(parameters["code"]), verifier)
    }

    @Test("a new user is created (created true), then the same identity signs in again (created false)")
    func newThenKnownUser() async throws {
        try await Self.withBrowserSignIn { server, provider in
            let (verifier, challenge) = try Self.pkce()
            let trip = try await Self.trip(server, challenge: challenge)
            #expect(trip.start.status == 302)
            #expect(trip.start.headers["cache-control"] == "no-store")
            let authorize = Self.parameters(try #require(trip.start.headers["location"]))
            #expect(authorize["client_id"] == provider.clientID)
            #expect(authorize["redirect_uri"] == "http://127.0.0.1:9/auth/oauth/fake/callback")
            #expect(authorize["code_challenge_method"] == "S256")
            #expect(authorize["code_challenge"] != challenge)
            #expect(authorize["state"] != "app-state-1")
            #expect((authorize["nonce"] ?? "").count >= 43)
            let final = try #require(trip.final)
            #expect(final.status == 302)
            #expect(final.headers["cache-control"] == "no-store")
            #expect(final.headers["referrer-policy"] == "no-referrer")
            let back = Self.parameters(try #require(final.headers["location"]))
            #expect(back["state"] == "app-state-1")
            let code = try #require(back["code"])
            #expect(!(final.headers["location"] ?? "").contains("token"))
            let issued = try await Self.exchange(server, code: code, verifier: verifier)
            #expect(issued.status == 200)
            #expect(issued.headers["cache-control"] == "no-store")
            let body = try issued.object()
            #expect(body["created"] as? Bool == true)
            let access = try #require(body["accessToken"] as? String)
            #expect(try AccountFlowTests.claims(access)["auth_time"] is Int, "POST /auth/token writes auth_time too")
            let me = try await Self.call(server, "GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"])
            #expect(me.status == 200)
            // The provider saw tokenvend's own verifier, with the client secret in HTTP Basic.
            let tokenRequest = try #require(provider.tokenRequests.last)
            #expect(tokenRequest.authorization?.hasPrefix("Basic ") == true)
            #expect(tokenRequest.form["code_verifier"] != verifier)
            #expect(provider.failures.isEmpty)

            let again = try await Self.signIn(server)
            let second = try await Self.exchange(server, code: again.code, verifier: again.verifier)
            #expect(second.status == 200)
            #expect(try second.object()["created"] as? Bool == false)
            let user = try #require(body["user"] as? [String: Any])
            #expect((try second.object()["user"] as? [String: Any])?["id"] as? String == user["id"] as? String)
            #expect(server.server.metrics.oauthSignIns.value(.callbackCreated) == 1)
            #expect(server.server.metrics.oauthSignIns.value(.callbackSignedIn) == 1)
            #expect(server.server.metrics.oauthSignIns.value(.tokenIssued) == 2)
            // Nothing secret reaches the log.
            let logs = server.logs()
            for secret in [Self.secret, code, again.code, verifier, access, "app-state-1"] {
                #expect(!logs.contains(secret), "log holds a secret value")
            }
            for query in provider.authorizeQueries {
                for value in [query["state"], query["nonce"], query["code_challenge"]].compactMap({ $0 }) {
                    #expect(!logs.contains(value))
                }
            }
            for request in provider.tokenRequests {
                for value in [request.form["code"], request.form["code_verifier"]].compactMap({ $0 }) {
                    #expect(!logs.contains(value))
                }
            }
        }
    }

    @Test("an existing account: a conflict by default, a link with linkVerifiedEmail; registration closed")
    func linkConflictRegistrationClosed() async throws {
        try await Self.withBrowserSignIn { server, provider in
            let existing = try await server.signUp(
                email: "taken-\(UUID().uuidString.prefix(6).lowercased())@example.com")
            provider.update { $0.user = .init(subject: "s-conflict", email: existing.email) }
            let (_, challenge) = try Self.pkce()
            let trip = try await Self.trip(server, challenge: challenge)
            let back = Self.parameters(try #require(trip.final?.headers["location"]))
            #expect(back["error"] == "access_denied")
            #expect(back["error_description"] == "identity_conflict")
            #expect(back["state"] == "app-state-1")
            #expect(back["code"] == nil)
        }
        let trusted = [
            "TOKENVEND_IDENTITY_LINK_VERIFIED_EMAIL": "true", "TOKENVEND_IDENTITY_TRUSTED_FOR_LINKING": #"["fake"]"#,
        ]
        try await Self.withBrowserSignIn(extra: trusted) { server, provider in
            let existing = try await Self.operatorVerifiedAccount(server, provider, subject: "s-link")
            let (verifier, challenge) = try Self.pkce()
            let back = try await Self.tripAfterStoreChange(server, challenge: challenge) { $0["code"] != nil }
            let code = try #require(back["code"])
            let issued = try await Self.exchange(server, code: code, verifier: verifier)
            #expect(issued.status == 200)
            #expect(try issued.object()["created"] as? Bool == false)
            #expect((try issued.object()["user"] as? [String: Any])?["id"] as? String == existing.userID)
            #expect(server.server.metrics.oauthSignIns.value(.callbackLinked) == 1)
        }
        try await Self.withBrowserSignIn(extra: ["TOKENVEND_REGISTRATION_ENABLED": "false"]) { server, _ in
            let (_, challenge) = try Self.pkce()
            let trip = try await Self.trip(server, challenge: challenge)
            let back = Self.parameters(try #require(trip.final?.headers["location"]))
            #expect(back["error"] == "access_denied")
            #expect(back["error_description"] == "registration_closed")
            #expect(server.server.metrics.oauthSignIns.value(.callbackRegistrationClosed) == 1)
        }
    }

    @Test(
        "linking follows identity.trustedForLinking: an untrusted provider, or a second identity of one, is a conflict")
    func linkTrust() async throws {
        // `fake` is not in the default list (apple, google): no link, even to an operator-verified account.
        try await Self.withBrowserSignIn(extra: ["TOKENVEND_IDENTITY_LINK_VERIFIED_EMAIL": "true"]) {
            server, provider in
            _ = try await Self.operatorVerifiedAccount(server, provider, subject: "s-untrusted")
            let (_, challenge) = try Self.pkce()
            let back = try await Self.tripAfterStoreChange(server, challenge: challenge) {
                $0["error_description"] == "identity_conflict"
            }
            #expect(back["error_description"] == "identity_conflict")
            #expect(server.server.metrics.oauthSignIns.value(.callbackLinked) == 0)
        }
        // Trusted, but the account has a `fake` identity already: a second one is not linked.
        let trusted = [
            "TOKENVEND_IDENTITY_LINK_VERIFIED_EMAIL": "true", "TOKENVEND_IDENTITY_TRUSTED_FOR_LINKING": #"["fake"]"#,
        ]
        try await Self.withBrowserSignIn(extra: trusted) { server, provider in
            let existing = try await Self.operatorVerifiedAccount(server, provider, subject: "s-first")
            let (_, challenge) = try Self.pkce()
            let first = try await Self.tripAfterStoreChange(server, challenge: challenge) { $0["code"] != nil }
            #expect(first["code"] != nil)
            provider.update { $0.user = .init(subject: "s-second", email: existing.email) }
            let second = Self.parameters(
                try #require(try await Self.trip(server, challenge: challenge).final?.headers["location"]))
            #expect(second["error_description"] == "identity_conflict")
            #expect(server.server.metrics.oauthSignIns.value(.callbackLinked) == 1)
        }
    }

    @Test("an unknown state is 400 JSON without a redirect, and so is a replayed callback")
    func unknownStateAndReplayedCallback() async throws {
        try await Self.withBrowserSignIn { server, _ in
            let unknown = try await Self.call(server, "GET", "/auth/oauth/fake/callback?code=x&state=never-issued")
            #expect(unknown.status == 400)
            #expect(unknown.headers["location"] == nil)
            #expect(unknown.errorCode == "invalid_request")
            let (_, challenge) = try Self.pkce()
            let trip = try await Self.trip(server, challenge: challenge)
            #expect(trip.final?.status == 302)
            let replay = try await Self.call(server, "GET", try #require(trip.callbackTarget))
            #expect(replay.status == 400)
            #expect(replay.headers["location"] == nil)
            #expect(server.server.metrics.oauthSignIns.value(.callbackInvalidState) == 2)
        }
    }

    @Test("a provider error reaches the app as access_denied with the app's state")
    func providerError() async throws {
        try await Self.withBrowserSignIn { server, provider in
            provider.update { $0.authorizeError = "access_denied" }
            let (_, challenge) = try Self.pkce()
            let trip = try await Self.trip(server, challenge: challenge)
            #expect(trip.final?.status == 302)
            let back = Self.parameters(try #require(trip.final?.headers["location"]))
            #expect(back["error"] == "access_denied")
            #expect(back["state"] == "app-state-1")
        }
    }

    @Test("a token endpoint that is down gives temporarily_unavailable; a wrong ID-token nonce gives access_denied")
    func providerFailures() async throws {
        try await Self.withBrowserSignIn { server, provider in
            provider.update { $0.tokenEndpointStatus = 503 }
            let (_, challenge) = try Self.pkce()
            let down = Self.parameters(
                try #require(try await Self.trip(server, challenge: challenge).final?.headers["location"]))
            #expect(down["error"] == "temporarily_unavailable")
            #expect(down["error_description"] == "unavailable")
            provider.update {
                $0.tokenEndpointStatus = nil
                $0.nonceOverride = "not-the-flow-nonce"
            }
            let wrongNonce = Self.parameters(
                try #require(try await Self.trip(server, challenge: challenge).final?.headers["location"]))
            #expect(wrongNonce["error"] == "access_denied")
            #expect(wrongNonce["error_description"] == "invalid_grant")
            #expect(wrongNonce["code"] == nil)
        }
    }

    @Test("a provider without ID tokens is read from its user-info endpoint")
    func userInfoOnly() async throws {
        try await Self.withBrowserSignIn { server, provider in
            provider.update {
                $0.withoutIDToken = true
                $0.user = .init(subject: "userinfo-subject", email: "userinfo@example.com")
            }
            let (code, verifier) = try await Self.signIn(server)
            let issued = try await Self.exchange(server, code: code, verifier: verifier)
            #expect(issued.status == 200)
            let user = try #require(try issued.object()["user"] as? [String: Any])
            #expect(user["email"] as? String == "userinfo@example.com")
        }
    }

    @Test("private_key_jwt: the provider checks tokenvend's signed client assertion")
    func privateKeyJWT() async throws {
        let key = try JWTKey.generate(kid: "client-key-1", algorithm: .es256)
        let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-client-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "client.pem").path
        try Data(try key.privateKeyPEM().utf8).write(to: URL(fileURLWithPath: path))
        try await Self.withBrowserSignIn(
            client: .privateKeyJWT(publicKey: key),
            members: #""clientPrivateKeyFile":"\#(path)","clientKeyId":"client-key-1""#
        ) { server, provider in
            let (code, verifier) = try await Self.signIn(server)
            #expect(try await Self.exchange(server, code: code, verifier: verifier).status == 200)
            #expect(provider.failures.isEmpty)
            #expect(provider.tokenRequests.last?.form["client_assertion"] != nil)
            #expect(provider.tokenRequests.last?.authorization == nil)
        }
    }

    @Test("start refusals are 400 JSON without Location: unregistered redirect URI, plain PKCE, bad state")
    func startRefusals() async throws {
        try await Self.withBrowserSignIn { server, _ in
            let (_, challenge) = try Self.pkce()
            for (redirect, method, state) in [
                ("com.evil.app:/oauth", "S256", "s"), ("http://127.0.0.1/other", "S256", "s"),
                ("http://localhost:5000/cb", "S256", "s"), (Self.app, "plain", "s"), (Self.app, "S256", ""),
            ] {
                let trip = try await Self.trip(
                    server, challenge: challenge, redirectURI: redirect, state: state, method: method)
                #expect(trip.start.status == 400, "\(redirect) \(method)")
                #expect(trip.start.headers["location"] == nil)
                #expect(trip.start.errorCode == "invalid_request")
            }
            let unknown = try await Self.call(
                server,
                "GET", "/auth/oauth/nobody?" + Self.query([("redirect_uri", Self.app), ("code_challenge", challenge)]))
            #expect(unknown.status == 400)
            // A query that is valid but for one parameter given twice: only the duplicate check can refuse it.
            let valid = [
                ("redirect_uri", Self.app), ("code_challenge", challenge), ("code_challenge_method", "S256"),
                ("state", "s"),
            ]
            let once = try await Self.call(server, "GET", "/auth/oauth/fake?" + Self.query(valid))
            #expect(once.status == 302)
            for repeated in [("state", "t"), ("redirect_uri", "com.evil.app:/x")] {
                let twice = try await Self.call(server, "GET", "/auth/oauth/fake?" + Self.query(valid + [repeated]))
                #expect(twice.status == 400, "\(repeated.0) twice")
                #expect(twice.headers["location"] == nil)
            }
            // A challenge that is not 43 base64url characters.
            for bad in [String(challenge.dropLast()), "+" + challenge.dropFirst(), "/" + challenge.dropFirst()] {
                let trip = try await Self.trip(server, challenge: bad)
                #expect(trip.start.status == 400, "\(bad)")
                #expect(trip.start.headers["location"] == nil)
            }
        }
    }

    @Test("a loopback redirect URI matches any port, and a URI with a query gets & before the code")
    func loopbackAnyPort() async throws {
        try await Self.withBrowserSignIn { server, _ in
            let (code, verifier) = try await Self.signIn(server, redirectURI: "http://127.0.0.1:53117/cb")
            #expect(
                try await Self.exchange(
                    server, code: code, verifier: verifier, redirectURI: "http://127.0.0.1:53117/cb"
                )
                .status == 200)
            let withQuery = try await Self.signIn(server, redirectURI: "https://app.example/cb?x=1")
            #expect(!withQuery.code.isEmpty)
        }
    }

    @Test("a flow older than identity.flowLifetimeSeconds is refused at the callback")
    func expiredFlow() async throws {
        let clock = Mutex(Date())
        try await Self.withBrowserSignIn(now: { clock.withLock { $0 } }) { server, _ in
            let (_, challenge) = try Self.pkce()
            let trip = try await Self.trip(server, challenge: challenge) {
                clock.withLock { $0 = $0.addingTimeInterval(301) }
            }
            #expect(trip.final?.status == 400)
            #expect(trip.final?.headers["location"] == nil)
        }
    }

    @Test("the code needs the right verifier and redirect_uri, works once, and a replay revokes its session")
    func codeRules() async throws {
        try await Self.withBrowserSignIn { server, _ in
            let wrongVerifier = try await Self.signIn(server)
            let refused = try await Self.exchange(
                server, code: wrongVerifier.code, verifier: try Self.pkce().verifier)
            #expect(refused.status == 400)
            #expect(try refused.object()["error"] as? String == "invalid_grant")
            #expect(try refused.object()["error_description"] is String)
            #expect(refused.headers["cache-control"] == "no-store")
            // Used up by that first presentation, even with the right verifier now.
            #expect(
                try await Self.exchange(server, code: wrongVerifier.code, verifier: wrongVerifier.verifier).status
                    == 400)

            let wrongRedirect = try await Self.signIn(server)
            #expect(
                try await Self.exchange(
                    server, code: wrongRedirect.code, verifier: wrongRedirect.verifier, redirectURI: Self.loopback
                ).status == 400)

            let good = try await Self.signIn(server)
            let issued = try await Self.exchange(server, code: good.code, verifier: good.verifier)
            #expect(issued.status == 200)
            let refresh = try #require(try issued.object()["refreshToken"] as? String)
            let replay = try await Self.exchange(server, code: good.code, verifier: good.verifier)
            #expect(replay.status == 400)
            #expect(try replay.object()["error"] as? String == "invalid_grant")
            let refreshed = try await Self.call(
                server, "POST", "/auth/refresh", json: #"{"refreshToken":"\#(refresh)"}"#)
            #expect(refreshed.status == 401)
            // Two replays: the code first refused for its verifier, presented again, and the good code.
            #expect(server.server.metrics.oauthSignIns.value(.tokenReplayed) == 2)
        }
    }

    @Test("the token endpoint takes a form body, refuses other grant types, and honours the cookie strategy")
    func tokenEndpointShapes() async throws {
        try await Self.withBrowserSignIn { server, _ in
            let form = try await Self.signIn(server)
            let body = Self.query([
                ("grant_type", "authorization_code"), ("code", form.code), ("code_verifier", form.verifier),
                ("redirect_uri", Self.app),
            ])
            let formAnswer = try await Self.call(
                server,
                "POST", "/auth/token", headers: ["Content-Type": "application/x-www-form-urlencoded"], json: body)
            #expect(formAnswer.status == 200)

            // AppAuth's exact body: a public client always adds client_id, which the endpoint ignores (RFC 6749
            // §3.2); JSON may carry it too.
            let appAuth = try await Self.signIn(server)
            let appAuthBody = Self.query([
                ("grant_type", "authorization_code"), ("code", appAuth.code), ("redirect_uri", Self.app),
                ("code_verifier", appAuth.verifier), ("client_id", "x"),
            ])
            let appAuthAnswer = try await Self.call(
                server,
                "POST", "/auth/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                json: appAuthBody)
            #expect(appAuthAnswer.status == 200)
            let jsonClient = try await Self.signIn(server)
            let jsonClientBody =
                #"{"grant_type":"authorization_code","code":"\#(jsonClient.code)","#
                + #""code_verifier":"\#(jsonClient.verifier)","redirect_uri":"\#(Self.app)","client_id":"x"}"#
            let jsonClientAnswer = try await Self.call(server, "POST", "/auth/token", json: jsonClientBody)
            #expect(jsonClientAnswer.status == 200)

            let password = try await Self.call(
                server,
                "POST", "/auth/token", json: #"{"grant_type":"password","code":"x"}"#)
            #expect(password.status == 400)
            #expect(try password.object()["error"] as? String == "unsupported_grant_type")
            let missing = try await Self.call(
                server, "POST", "/auth/token", json: #"{"grant_type":"authorization_code"}"#)
            #expect(try missing.object()["error"] as? String == "invalid_request")

            let cookie = try await Self.signIn(server)
            let cookies = try await Self.exchange(
                server, code: cookie.code, verifier: cookie.verifier, headers: ["X-Auth-Strategy": "cookie"])
            #expect(cookies.status == 200)
            #expect(try cookies.object()["accessToken"] == nil)
            #expect(cookies.headers["set-cookie"] != nil)
        }
    }
}

extension BrowserSignInTests {
    @Test("each of the three endpoints counts against the per-address limit and answers 429 with Retry-After")
    func rateLimited() async throws {
        let limit = ["TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "3"]
        try await Self.withBrowserSignIn(extra: limit) { server, _ in
            // start + callback + token: the whole allowance of 3.
            let (code, verifier) = try await Self.signIn(server)
            #expect(try await Self.exchange(server, code: code, verifier: verifier).status == 200)
            let (_, challenge) = try Self.pkce()
            let start = try await Self.trip(server, challenge: challenge)
            let callback = try await Self.call(server, "GET", "/auth/oauth/fake/callback?code=c&state=s")
            let token = try await Self.exchange(server, code: code, verifier: verifier)
            for (name, answer) in [("start", start.start), ("callback", callback), ("token", token)] {
                #expect(answer.status == 429, "\(name)")
                #expect(answer.headers["retry-after"] != nil, "\(name)")
                #expect(answer.headers["location"] == nil, "\(name)")
            }
        }
    }
}
