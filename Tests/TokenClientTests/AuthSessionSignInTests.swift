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

    @Test("signIn posts provider, ID token and raw nonce with the bearer strategy, stores both tokens, signs in")
    func signInStoresTokens() async throws {
        let result = try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken, nonce: "raw-nonce")
        #expect(result == SignInResult(user: FakeAuthServer.user, created: true))
        let stored = try #require(store.load())
        #expect(stored.accessToken == "access-1")
        #expect(stored.refreshToken == "refresh-1")
        #expect(stored.accessTokenExpiresAt == clock.now.addingTimeInterval(900))
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/auth/idtoken")
        #expect(request.authStrategy == "bearer")
        #expect(request.authorization == nil)
        let body = try JSONDecoder().decode(IDTokenSignInRequest.self, from: try #require(request.body))
        #expect(body == IDTokenSignInRequest(provider: "apple", idToken: FakeAuthServer.idToken, nonce: "raw-nonce"))
        // The session works like one from login: authenticated requests carry the new token.
        _ = try await session.me()
        #expect(server.requests.last?.authorization == "Bearer access-1")
    }

    @Test("a second sign-in of a known identity reports created false and replaces the tokens")
    func knownIdentity() async throws {
        try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken)
        server.configure { $0.signInCreates = false }
        let again = try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken)
        #expect(again.created == false)
        #expect(store.load()?.accessToken == "access-2")
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
        await #expect(throws: TokenClientError.invalidResponse) {
            try await session.signIn(provider: "apple", idToken: FakeAuthServer.idToken)
        }
        #expect(store.load() == nil)
        #expect(await session.state == .signedOut)
    }
}
