import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import StrictJSON
import Testing

/// A Google-shaped provider (discovery) and a GitHub-shaped one (explicit endpoints, user info), both on fakes.
struct BrowserFixture {
    static let clientId = "client-123.apps.googleusercontent.com"
    static let secret = "GOCSPX-very-secret-value"
    static let callback = "https://auth.example.com/auth/oauth/google/callback"
    static let tokenURL = "https://oauth2.googleapis.com/token"
    static let jwksURL = "https://www.googleapis.com/oauth2/v3/certs"
    static let nonce = "flow-nonce-0123456789"
    static let code = "4/0AQlEd8provider-code"
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let githubToken = "https://github.com/login/oauth/access_token"
    static let githubUser = "https://api.github.com/user"

    let http = FakeOAuthHTTPClient()
    let fetcher = FakeJWKSFetcher()
    let clock = ManualClock(Fixture.start)
    let keys: ProviderKeyCache
    let discovery: DiscoveryCache

    init() {
        keys = ProviderKeyCache(fetcher: fetcher, clock: clock.closure)
        discovery = DiscoveryCache(client: http, clock: clock.closure)
        http.serve(DiscoveryFixtures.googleURL, json: DiscoveryFixtures.google)
        fetcher.serve(Self.jwksURL, body: TestIDToken.jwks([Fixture.rsa.publicJWK]))
    }

    func google(authentication: ClientAuthentication = .secretBasic(BrowserFixture.secret)) throws -> BrowserProvider {
        try BrowserProvider(
            name: "google", clientId: Self.clientId, authentication: authentication,
            scopes: ["openid", "email", "profile"], callbackURL: Self.callback,
            endpoints: .discovery(url: DiscoveryFixtures.googleURL, issuer: DiscoveryFixtures.googleIssuer),
            http: http, discovery: discovery, keys: keys)
    }

    func github(userInfo: String? = BrowserFixture.githubUser) throws -> BrowserProvider {
        try BrowserProvider(
            name: "github", clientId: "Iv1.gh-client", authentication: .secretPost(Self.secret),
            scopes: ["read:user", "user:email"], callbackURL: "https://auth.example.com/auth/oauth/github/callback",
            endpoints: .explicit(
                authorizationURL: "https://github.com/login/oauth/authorize", tokenURL: Self.githubToken,
                userInfoURL: userInfo, issuer: nil, jwksURL: nil),
            http: http, discovery: discovery, keys: keys)
    }

    /// Google ID-token claims for the fixture's flow.
    static func claims(_ changes: [String: JSONValue?] = [:]) -> JSONObject {
        let issued = Int64(Fixture.start.timeIntervalSince1970) - 5
        var object: JSONObject = [
            "iss": .string(DiscoveryFixtures.googleIssuer), "aud": .string(clientId), "azp": .string(clientId),
            "exp": .integer(issued + 3600), "iat": .integer(issued), "sub": "110169484474386276334",
            "email": "ada@example.com", "email_verified": true, "nonce": .string(nonce),
        ]
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) { object[name] = value }
        return object
    }

    /// Serves a token answer holding an ID token with `claims`.
    func serveTokens(claims: JSONObject = BrowserFixture.claims()) throws {
        let idToken = try TestIDToken.rs256(claims, key: Fixture.rsa)
        let body: JSONObject = [
            "access_token": "ya29.access", "token_type": "Bearer", "expires_in": 3599, "id_token": .string(idToken),
        ]
        http.serve(Self.tokenURL, body: body.serialized())
    }

    func identity(_ provider: BrowserProvider) async -> Result<ProviderIdentity, BrowserSignInFailure> {
        do throws(BrowserSignInFailure) {
            return .success(
                try await provider.identity(
                    code: Self.code, codeVerifier: Self.verifier, nonce: Self.nonce, now: clock.now))
        } catch {
            return .failure(error)
        }
    }
}

@Suite struct BrowserProviderTests {
    @Test("the authorization URL carries every parameter percent-encoded, after resolving discovery")
    func authorizationURL() async throws {
        let fixture = BrowserFixture()
        let url = try await fixture.google().authorizationURL(state: "st+ate/=", nonce: "n o", codeChallenge: "E9M-_c")
        #expect(
            url == "https://accounts.google.com/o/oauth2/v2/auth?response_type=code"
                + "&client_id=client-123.apps.googleusercontent.com"
                + "&redirect_uri=https%3A%2F%2Fauth.example.com%2Fauth%2Foauth%2Fgoogle%2Fcallback"
                + "&scope=openid%20email%20profile&state=st%2Bate%2F%3D&nonce=n%20o&code_challenge=E9M-_c"
                + "&code_challenge_method=S256")
        #expect(fixture.http.requests.map(\.url) == [DiscoveryFixtures.googleURL])
        let github = try await fixture.github().authorizationURL(state: "s", nonce: "n", codeChallenge: "c")
        #expect(
            github.hasPrefix("https://github.com/login/oauth/authorize?response_type=code&client_id=Iv1.gh-client&"))
        #expect(github.contains("&scope=read%3Auser%20user%3Aemail&"))
        let withQuery = try BrowserProvider(
            name: "q", clientId: "c", authentication: .secretBasic("s"), scopes: ["openid"],
            callbackURL: BrowserFixture.callback,
            endpoints: .explicit(
                authorizationURL: "https://idp.example/auth?prompt=login", tokenURL: "https://idp.example/token",
                userInfoURL: nil, issuer: nil, jwksURL: nil),
            http: fixture.http, discovery: fixture.discovery, keys: fixture.keys)
        let appended = try await withQuery.authorizationURL(state: "s", nonce: "n", codeChallenge: "c")
        #expect(appended.hasPrefix("https://idp.example/auth?prompt=login&response_type=code&client_id=c&"))
    }

    @Test("happy path: the code is exchanged with PKCE and Basic auth, the ID token verified with the raw nonce")
    func happyPath() async throws {
        let fixture = BrowserFixture()
        try fixture.serveTokens()
        let identity = try await fixture.identity(fixture.google()).get()
        #expect(
            identity == ProviderIdentity(provider: "google", subject: "110169484474386276334", email: "ada@example.com")
        )
        let request = try #require(fixture.http.requests(to: BrowserFixture.tokenURL).first)
        #expect(request.method == "POST")
        #expect(request.form.map(\.0) == ["grant_type", "code", "redirect_uri", "code_verifier", "client_id"])
        #expect(request.formValue("grant_type") == "authorization_code")
        #expect(request.formValue("code") == BrowserFixture.code)
        #expect(request.formValue("redirect_uri") == BrowserFixture.callback)
        #expect(request.formValue("code_verifier") == BrowserFixture.verifier)
        #expect(request.formValue("client_id") == BrowserFixture.clientId)
        #expect(
            request.header("authorization")
                == ClientAuthentication.basicAuthorization(
                    clientId: BrowserFixture.clientId, secret: BrowserFixture.secret))
        #expect(fixture.fetcher.calls == [BrowserFixture.jwksURL])
    }

    @Test("an unverified email is not returned")
    func unverifiedEmail() async throws {
        let fixture = BrowserFixture()
        try fixture.serveTokens(claims: BrowserFixture.claims(["email_verified": false]))
        #expect(try await fixture.identity(fixture.google()).get().email == nil)
    }

    @Test("a wrong nonce, a wrong audience, a missing nonce are refused as invalidIDToken")
    func refusedIDTokens() async throws {
        let cases: [([String: JSONValue?], IDTokenRejection)] = [
            (["nonce": "someone-elses-nonce"], .nonceMismatch), (["aud": "another-client", "azp": nil], .audience),
            (["nonce": nil], .nonceMissing), (["iss": "https://evil.example"], .issuer),
        ]
        for (changes, rejection) in cases {
            let fixture = BrowserFixture()
            try fixture.serveTokens(claims: BrowserFixture.claims(changes))
            #expect(await fixture.identity(try fixture.google()) == .failure(.invalidIDToken(rejection)))
        }
    }

    @Test("no ID token and no user-info endpoint is .invalidResponse")
    func noIDTokenNoUserInfo() async throws {
        let fixture = BrowserFixture()
        fixture.http.serve(BrowserFixture.githubToken, json: #"{"access_token":"gho_x","token_type":"bearer"}"#)
        guard case .failure(.invalidResponse) = await fixture.identity(try fixture.github(userInfo: nil)) else {
            Issue.record("expected invalidResponse")
            return
        }
        #expect(fixture.http.requests.map(\.method) == ["POST"])
    }

    @Test("user info (GitHub-shaped): numeric id as the subject, no email without email_verified, bearer sent")
    func userInfo() async throws {
        let fixture = BrowserFixture()
        fixture.http.serve(
            BrowserFixture.githubToken,
            json:
                #"{"access_token":"gho_16C7e42F292c6912E7710c838347Ae178B4a","token_type":"bearer","scope":"read:user,user:email"}"#
        )
        fixture.http.serve(
            BrowserFixture.githubUser,
            json: #"{"login":"octocat","id":583231,"node_id":"MDQ6VXNlcjU4MzIzMQ==","email":"octocat@github.com"}"#)
        let identity = try await fixture.identity(fixture.github()).get()
        #expect(identity == ProviderIdentity(provider: "github", subject: "583231", email: nil))
        let token = try #require(fixture.http.requests(to: BrowserFixture.githubToken).first)
        #expect(token.formValue("client_secret") == BrowserFixture.secret)
        #expect(token.header("authorization") == nil)
        let user = try #require(fixture.http.requests(to: BrowserFixture.githubUser).first)
        #expect(user.bearer == "gho_16C7e42F292c6912E7710c838347Ae178B4a")
    }

    @Test(
        "user info: sub wins, a string id works, email_verified true or \"true\" gives the email, no subject is refused"
    )
    func userInfoShapes() async throws {
        let bodies: [(String, Result<ProviderIdentity, BrowserSignInFailure>)] = [
            (
                #"{"sub":"abc","id":1,"email":"a@x.org","email_verified":true}"#,
                .success(ProviderIdentity(provider: "github", subject: "abc", email: "a@x.org"))
            ),
            (
                #"{"id":"u-7","email":"a@x.org","email_verified":"true"}"#,
                .success(ProviderIdentity(provider: "github", subject: "u-7", email: "a@x.org"))
            ),
            (
                #"{"id":7,"email":"a@x.org","email_verified":"false"}"#,
                .success(ProviderIdentity(provider: "github", subject: "7", email: nil))
            ),
            (#"{"login":"octocat","email":"a@x.org"}"#, .failure(.invalidResponse("user info has no subject"))),
            (#"{"sub":""}"#, .failure(.invalidResponse("user info has no subject"))),
        ]
        for (body, expected) in bodies {
            let fixture = BrowserFixture()
            fixture.http.serve(BrowserFixture.githubToken, json: #"{"access_token":"gho_x","token_type":"bearer"}"#)
            fixture.http.serve(BrowserFixture.githubUser, json: body)
            #expect(await fixture.identity(try fixture.github()) == expected, "\(body)")
        }
    }

    @Test("the provider refusing the code is .providerRefused with its error code (400, and GitHub's 200)")
    func providerRefuses() async throws {
        let fixture = BrowserFixture()
        fixture.http.serve(
            BrowserFixture.tokenURL, status: 400, json: #"{"error":"invalid_grant","error_description":"Bad Request"}"#)
        #expect(await fixture.identity(try fixture.google()) == .failure(.providerRefused("invalid_grant")))
        fixture.http.serve(
            BrowserFixture.githubToken,
            json: #"{"error":"bad_verification_code","error_description":"The code passed is incorrect or expired."}"#)
        #expect(await fixture.identity(try fixture.github()) == .failure(.providerRefused("bad_verification_code")))
        fixture.http.serve(BrowserFixture.tokenURL, status: 401, json: #"{"error":"Invalid Client\r\n"}"#)
        #expect(await fixture.identity(try fixture.google()) == .failure(.providerRefused("unknown_error")))
    }

    @Test("a 503 or a transport failure at the token endpoint is .providerUnavailable; discovery down too")
    func providerUnavailable() async throws {
        let fixture = BrowserFixture()
        fixture.http.serve(BrowserFixture.tokenURL, status: 503, json: "{}")
        #expect(await fixture.identity(try fixture.google()) == .failure(.providerUnavailable(retryAfter: 10)))
        fixture.http.fail(BrowserFixture.tokenURL, with: .timedOut)
        #expect(await fixture.identity(try fixture.google()) == .failure(.providerUnavailable(retryAfter: 10)))
        let cold = BrowserFixture()
        cold.http.fail(DiscoveryFixtures.googleURL)
        #expect(await cold.identity(try cold.google()) == .failure(.providerUnavailable(retryAfter: 60)))
        #expect(cold.http.requests(to: BrowserFixture.tokenURL).isEmpty)
    }

    @Test("token answers outside the protocol are .invalidResponse")
    func malformedTokenAnswers() async throws {
        for body in [
            "not json", #"{"token_type":"Bearer"}"#, #"{"access_token":"a","token_type":"mac"}"#,
            #"{"access_token":"a","token_type":"Bearer","id_token":5}"#,
        ] {
            let fixture = BrowserFixture()
            fixture.http.serve(BrowserFixture.tokenURL, json: body)
            guard case .failure(.invalidResponse) = await fixture.identity(try fixture.google()) else {
                Issue.record("expected invalidResponse for \(body)")
                continue
            }
        }
    }

    @Test("the secret, code, verifier and tokens never appear in any error text")
    func secretNeverInErrors() async throws {
        var failures: [BrowserSignInFailure] = []
        let answers: [(Int, String)] = [
            (400, #"{"error":"invalid_grant","error_description":"GOCSPX-very-secret-value"}"#), (503, "{}"),
            (200, #"{"access_token":"ya29.access","token_type":"Bearer"}"#), (302, ""), (200, "[]"),
        ]
        for (status, body) in answers {
            let fixture = BrowserFixture()
            fixture.http.serve(BrowserFixture.tokenURL, status: status, json: body)
            if case .failure(let failure) = await fixture.identity(try fixture.google()) { failures.append(failure) }
        }
        let fixture = BrowserFixture()
        try fixture.serveTokens(claims: BrowserFixture.claims(["nonce": "x"]))
        if case .failure(let failure) = await fixture.identity(try fixture.google()) { failures.append(failure) }
        #expect(failures.count == answers.count + 1)
        for failure in failures {
            let texts = [String(describing: failure), String(reflecting: failure), failure.reason]
            for text in texts {
                for secret in [
                    BrowserFixture.secret, BrowserFixture.code, BrowserFixture.verifier, "ya29.access",
                    BrowserFixture.nonce,
                ] {
                    #expect(!text.contains(secret), "\(text)")
                }
            }
            #expect(BrowserSignInFailure.reasons.contains(failure.reason))
        }
    }

    @Test("a provider is refused for insecure URLs, an empty secret, a key that cannot sign, bad scopes")
    func invalidProviders() throws {
        let fixture = BrowserFixture()
        func make(
            authentication: ClientAuthentication = .secretBasic("s"), scopes: [String] = ["openid"],
            callback: String = BrowserFixture.callback,
            endpoints: BrowserProvider.Endpoints = .discovery(url: DiscoveryFixtures.googleURL, issuer: "https://i")
        ) -> BrowserProviderError? {
            do throws(BrowserProviderError) {
                _ = try BrowserProvider(
                    name: "p", clientId: "c", authentication: authentication, scopes: scopes, callbackURL: callback,
                    endpoints: endpoints, http: fixture.http, discovery: fixture.discovery, keys: fixture.keys)
                return nil
            } catch {
                return error
            }
        }
        #expect(make() == nil)
        #expect(make(callback: "http://auth.example.com/cb") == .insecureURL("callbackURL"))
        #expect(
            make(endpoints: .discovery(url: "http://idp.example/.well-known", issuer: "i"))
                == .insecureURL("discoveryURL"))
        #expect(
            make(
                endpoints: .explicit(
                    authorizationURL: "https://a", tokenURL: "http://t.example", userInfoURL: nil, issuer: nil,
                    jwksURL: nil))
                == .insecureURL("tokenURL"))
        #expect(
            make(
                endpoints: .explicit(
                    authorizationURL: "https://a", tokenURL: "https://t", userInfoURL: nil, issuer: "https://i",
                    jwksURL: nil))
                == .issuerWithoutKeys)
        #expect(make(authentication: .secretPost("")) == .emptySecret)
        #expect(make(scopes: []) == .invalidScopes)
        #expect(make(scopes: ["openid email"]) == .invalidScopes)
        let publicOnly = try JWTKeySet.verifying(JWKSet(keys: [#require(Fixture.ec.publicJWK())])).keys.keys[0]
        #expect(make(authentication: .privateKeyJWT(key: publicOnly)) == .keyCannotSign)
        #expect(make(authentication: .privateKeyJWT(key: Fixture.ec)) == nil)
    }
}
