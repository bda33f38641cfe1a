import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("AuthSession.signIn")
struct AuthSessionSignInTests {
    let clock = TestClock()
    let server: FakeAuthServer
    let store = InMemoryTokenStore()
    let session: AuthSession

    init() throws {
        server = FakeAuthServer(clock: clock)
        session = AuthSession(
            baseURL: try #require(URL(string: "https://api.example.test/")), transport: server, store: store,
            now: clock.closure)
    }

    @Test("signInNonce posts to /auth/nonce without credentials and gives the raw nonce and its SHA-256 hex")
    func nonceFromServer() async throws {
        let nonce = try await session.signInNonce()
        #expect(nonce.raw == "nonce-1")
        #expect(nonce.expiresIn == 600)
        // printf 'nonce-1' | sha256sum
        #expect(nonce.sha256 == "9e3f156324d42f0ea4b6f4fce81d56fbd64a2143a3fdd60a130d9c90e5b4d688")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/auth/nonce")
        #expect(request.authorization == nil)
        #expect(server.state.withLock { $0.pendingNonces } == ["nonce-1"])
    }

    @Test("the SHA-256 of a nonce is the lowercase hex Apple's request wants (FIPS 180-4 vector)")
    func nonceHash() {
        #expect(
            SignInNonce(raw: "abc", expiresIn: 600).sha256
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("signIn posts provider, ID token and raw nonce with the bearer strategy, stores both tokens, signs in")
    func signInStoresTokens() async throws {
        let nonce = try await session.signInNonce()
        let result = try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken, nonce: nonce.raw)
        #expect(result == SignInResult(user: FakeAuthServer.user, created: true))
        let stored = try #require(store.load())
        #expect(stored.accessToken == "access-1")
        #expect(stored.refreshToken == "refresh-1")
        #expect(stored.accessTokenExpiresAt == clock.now.addingTimeInterval(900))
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        let request = try #require(server.requests.last)
        #expect(request.method == "POST")
        #expect(request.path == "/auth/idtoken")
        #expect(request.authStrategy == "bearer")
        #expect(request.authorization == nil)
        let body = try JSONDecoder().decode(IDTokenSignInRequest.self, from: try #require(request.body))
        #expect(body == IDTokenSignInRequest(provider: "apple", idToken: FakeAuthServer.idToken, nonce: "nonce-1"))
        // The session works like one from login: authenticated requests carry the new token.
        _ = try await session.me()
        #expect(server.requests.last?.authorization == "Bearer access-1")
    }

    @Test("a second sign-in of a known identity reports created false and replaces the tokens")
    func knownIdentity() async throws {
        try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken, nonce: session.signInNonce().raw)
        server.configure { $0.signInCreates = false }
        let again = try await session.signIn(
            provider: "apple", idToken: FakeAuthServer.idToken, nonce: session.signInNonce().raw)
        #expect(again.created == false)
        #expect(store.load()?.accessToken == "access-2")
        let body = try JSONDecoder().decode(IDTokenSignInRequest.self, from: try #require(server.requests.last?.body))
        #expect(body.nonce == "nonce-2")
    }

    @Test("a used nonce is refused: each sign-in needs a fresh one from the server")
    func usedNonce() async throws {
        let nonce = try await session.signInNonce()
        try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken, nonce: nonce.raw)
        await #expect(
            throws: TokenClientError.server(
                status: 401, body: ErrorBody(error: .invalidGrant, message: "test invalid_grant"))
        ) {
            try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken, nonce: nonce.raw)
        }
    }

    @Test("a server without server nonces still takes a sign-in without a nonce")
    func withoutServerNonce() async throws {
        server.configure { $0.requireServerNonce = false }
        let result = try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken)
        #expect(result.created)
        let body = try JSONDecoder().decode(IDTokenSignInRequest.self, from: try #require(server.requests.last?.body))
        #expect(body.nonce == nil)
    }

    @Test("a refused ID token throws the server's invalid_grant and stays signed out")
    func refused() async throws {
        await #expect(
            throws: TokenClientError.server(
                status: 401, body: ErrorBody(error: .invalidGrant, message: "test invalid_grant"))
        ) {
            try await session.signIn(provider: "apple", idToken: "forged")
        }
        #expect(await session.state == .signedOut)
        #expect(store.load() == nil)
    }

    @Test("a 200 without created is an invalid response, and nothing is stored")
    func missingCreated() async throws {
        server.configure { $0.signInCreates = nil }
        let nonce = try await session.signInNonce()
        await #expect(throws: TokenClientError.invalidResponse) {
            try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken, nonce: nonce.raw)
        }
        #expect(store.load() == nil)
        #expect(await session.state == .signedOut)
    }
}
