import AuthAPI
import Foundation
import Testing
import TokenClientTesting

@testable import TokenClient
@testable import TokenClientCore

@Suite("WebSignIn")
struct WebSignInTests {
    let clock = TestClock()
    let server: FakeAuthServer
    let store = InMemoryTokenStore()
    let session: AuthSession
    let api: URL

    init() throws {
        server = FakeAuthServer(clock: clock)
        api = try #require(URL(string: "https://api.example.test/"))
        session = AuthSession(baseURL: api, transport: server, store: store, now: clock.closure)
    }

    /// The query of `url` split on `&` and `=`, without decoding.
    static func rawQuery(_ url: URL) throws -> [String: String] {
        let query = try #require(url.absoluteString.split(separator: "?", maxSplits: 1).last)
        var pairs: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            try #require(parts.count == 2)
            pairs[String(parts[0])] = String(parts[1])
        }
        return pairs
    }

    @Test("the authorization URL names the provider and carries every parameter percent-encoded")
    func authorizationURL() throws {
        let web = WebSignIn(
            baseURL: try #require(URL(string: "https://api.example.test/v1/")), provider: "git hub",
            redirectURI: "com.example.app:/oauth?x=1&y=a b+c")
        let pending = web.start(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", state: "st/ate+1=")
        let url = pending.authorizationURL.absoluteString
        #expect(url.hasPrefix("https://api.example.test/v1/auth/oauth/git%20hub?"))
        #expect(
            try Self.rawQuery(pending.authorizationURL) == [
                "redirect_uri": "com.example.app%3A%2Foauth%3Fx%3D1%26y%3Da%20b%2Bc",
                "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                "code_challenge_method": "S256",
                "state": "st%2Fate%2B1%3D",
            ])
        // A query parser gets the values back exactly.
        let items = try #require(
            URLComponents(url: pending.authorizationURL, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.first { $0.name == "redirect_uri" }?.value == "com.example.app:/oauth?x=1&y=a b+c")
        #expect(items.first { $0.name == "state" }?.value == "st/ate+1=")
        #expect(pending.redirectURI == "com.example.app:/oauth?x=1&y=a b+c")
        #expect(pending.provider == "git hub")
    }

    @Test("start makes a fresh verifier and state each time, and the URL carries the verifier's challenge")
    func freshStart() throws {
        let web = WebSignIn(
            baseURL: try #require(URL(string: "https://api.example.test")), provider: "github",
            redirectURI: "http://127.0.0.1:8123/cb")
        let first = web.start()
        let second = web.start()
        #expect(first.state != second.state && first.codeVerifier != second.codeVerifier)
        #expect(first.state.count == 43 && first.codeVerifier.count == 43)
        #expect(first.authorizationURL.absoluteString.hasPrefix("https://api.example.test/auth/oauth/github?"))
        let query = try Self.rawQuery(first.authorizationURL)
        #expect(query["code_challenge"] == PKCE.challenge(for: first.codeVerifier))
        #expect(query["state"] == first.state)
        #expect(query["redirect_uri"] == "http%3A%2F%2F127.0.0.1%3A8123%2Fcb")
        // The verifier never appears in the URL.
        #expect(!first.authorizationURL.absoluteString.contains(first.codeVerifier))
    }

    @Test("a pending sign-in survives a JSON round trip (an app relaunch)")
    func codable() throws {
        let pending = WebSignIn(baseURL: api, provider: "github", redirectURI: "com.example.app:/oauth").start()
        let decoded = try JSONDecoder().decode(PendingWebSignIn.self, from: JSONEncoder().encode(pending))
        #expect(decoded == pending)
    }

    @Test(
        "a callback whose state is missing, repeated or different is refused without any request",
        arguments: [
            "com.example.app:/oauth?code=fake-code&state=other",
            "com.example.app:/oauth?code=fake-code",
            "com.example.app:/oauth?code=fake-code&state=S1&state=S1",
            "com.example.app:/oauth?error=access_denied&state=other",
            "com.example.app:/oauth?code=fake-code&state=s1",
        ])
    func stateMismatch(callback: String) async throws {
        let pending = WebSignIn(baseURL: api, provider: "github", redirectURI: "com.example.app:/oauth")
            .start(verifier: PKCE.makeVerifier(), state: "S1")
        await #expect(throws: WebSignInError.stateMismatch) {
            try await session.completeWebSignIn(pending, callbackURL: try #require(URL(string: callback)))
        }
        #expect(server.requests.isEmpty)
        #expect(await session.state == .signedOut)
        #expect(store.load() == nil)
    }

    @Test("an error callback is a typed provider error with tokenvend's description, and sends nothing")
    func errorCallback() async throws {
        let pending = WebSignIn(baseURL: api, provider: "github", redirectURI: "com.example.app:/oauth")
            .start(verifier: PKCE.makeVerifier(), state: "S1")
        let url = try #require(
            URL(string: "com.example.app:/oauth?error=access_denied&error_description=registration_closed&state=S1"))
        await #expect(throws: WebSignInError.providerError(code: "access_denied", description: "registration_closed")) {
            try await session.completeWebSignIn(pending, callbackURL: url)
        }
        let bare = try #require(URL(string: "com.example.app:/oauth?state=S1&error=server_error"))
        await #expect(throws: WebSignInError.providerError(code: "server_error", description: nil)) {
            try await session.completeWebSignIn(pending, callbackURL: bare)
        }
        let noCode = try #require(URL(string: "com.example.app:/oauth?state=S1"))
        await #expect(throws: WebSignInError.missingCode) {
            try await session.completeWebSignIn(pending, callbackURL: noCode)
        }
        #expect(server.requests.isEmpty)
        #expect(await session.state == .signedOut)
    }

    @Test("success posts the code, verifier and redirect URI with the bearer strategy, stores tokens, signs in")
    func success() async throws {
        let redirect = "com.example.app:/oauth"
        let pending = WebSignIn(baseURL: api, provider: "github", redirectURI: redirect).start()
        let callback = try #require(URL(string: "\(redirect)?code=fake-code&state=\(pending.state)"))
        let updates = await session.stateUpdates()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .signedOut)
        let result = try await session.completeWebSignIn(pending, callbackURL: callback)
        #expect(result == SignInResult(user: FakeAuthServer.user, created: true))
        #expect(await iterator.next() == .signedIn(FakeAuthServer.user))
        let stored = try #require(store.load())
        #expect(stored.accessToken == "access-1" && stored.refreshToken == "refresh-1")
        #expect(stored.accessTokenExpiresAt == clock.now.addingTimeInterval(900))
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.method == "POST" && request.path == "/auth/token")
        #expect(request.authStrategy == "bearer" && request.authorization == nil)
        let data = try #require(request.body)
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(
            body == [
                "grant_type": "authorization_code", "code": "fake-code", "code_verifier": pending.codeVerifier,
                "redirect_uri": redirect,
            ])
        _ = try await session.me()
        #expect(server.requests.last?.authorization == "Bearer access-1")
    }

    @Test("a refused code is a typed server error carrying the RFC 6749 error and description; nothing is stored")
    func refusedCode() async throws {
        let pending = WebSignIn(baseURL: api, provider: "github", redirectURI: "com.example.app:/oauth")
            .start(verifier: PKCE.makeVerifier(), state: "S1")
        let url = try #require(URL(string: "com.example.app:/oauth?code=used-code&state=S1"))
        await #expect(
            throws: TokenClientError.server(
                status: 400, body: ErrorBody(error: .invalidGrant, message: "the code is not valid"))
        ) {
            try await session.completeWebSignIn(pending, callbackURL: url)
        }
        #expect(await session.state == .signedOut)
        #expect(store.load() == nil)
    }

    @Test("an existing account signs in with created false; a 200 without created is an invalid response")
    func createdFlag() async throws {
        server.configure { $0.signInCreates = false }
        let pending = WebSignIn(baseURL: api, provider: "github", redirectURI: "com.example.app:/oauth")
            .start(verifier: PKCE.makeVerifier(), state: "S1")
        let url = try #require(URL(string: "com.example.app:/oauth?code=fake-code&state=S1"))
        #expect(try await session.completeWebSignIn(pending, callbackURL: url).created == false)
        server.configure {
            $0.signInCreates = nil
            $0.authorizationCodeUsed = false
        }
        let other = AuthSession(baseURL: api, transport: server, store: InMemoryTokenStore(), now: clock.closure)
        await #expect(throws: TokenClientError.invalidResponse) {
            try await other.completeWebSignIn(pending, callbackURL: url)
        }
        #expect(await other.state == .signedOut)
    }
}
