import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("AuthSession")
struct AuthSessionTests {
    let clock = TestClock()
    let server: FakeAuthServer
    let store = InMemoryTokenStore()
    let session: AuthSession

    init() throws {
        server = FakeAuthServer(clock: clock)
        session = AuthSession(
            baseURL: try #require(URL(string: "https://api.example.test/")),
            transport: server,
            store: store,
            now: clock.closure
        )
    }

    @Test("login sends the bearer strategy, stores both tokens and publishes signed in")
    func loginStoresTokens() async throws {
        let user = try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        #expect(user == FakeAuthServer.user)
        let stored = try #require(store.load())
        #expect(stored.accessToken == "access-1")
        #expect(stored.refreshToken == "refresh-1")
        #expect(stored.accessTokenExpiresAt == clock.now.addingTimeInterval(900))
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        let login = try #require(server.requests.first)
        #expect(login.authStrategy == "bearer")
        #expect(login.authorization == nil)
    }

    @Test("a refused login throws the server error and stays signed out")
    func loginFailure() async throws {
        await #expect(
            throws: TokenClientError.server(
                status: 401, body: ErrorBody(error: .invalidCredentials, message: "test invalid_credentials"))
        ) {
            try await session.login(email: "ada@example.com", password: "wrong password")
        }
        #expect(await session.state == .signedOut)
        #expect(store.load() == nil)
    }

    @Test("me attaches the access token as a Bearer header")
    func meAttachesBearer() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        let me = try await session.me()
        #expect(me.sub == FakeAuthServer.user.id)
        #expect(server.requests.last?.authorization == "Bearer access-1")
    }

    @Test("a 401 triggers one refresh and one retry with the new token")
    func refreshOnceOn401() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        server.revokeAccessTokens()
        let me = try await session.me()
        #expect(me.email == FakeAuthServer.user.email)
        #expect(server.count("/auth/refresh") == 1)
        #expect(
            server.requests.filter { $0.path == "/auth/me" }.map(\.authorization) == [
                "Bearer access-1", "Bearer access-2",
            ])
        #expect(store.load()?.refreshToken == "refresh-2")
        let refresh = try #require(server.requests.first { $0.path == "/auth/refresh" })
        #expect(refresh.method == "POST" && refresh.authStrategy == "bearer" && refresh.authorization == nil)
        let body = try JSONDecoder().decode(RefreshRequest.self, from: try #require(refresh.body))
        #expect(body.refreshToken == "refresh-1")
    }

    @Test("a second 401 after the retry is thrown, without looping")
    func secondUnauthorizedIsAnError() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        server.configure { $0.rejectEveryAccessToken = true }
        let error = await #expect(throws: TokenClientError.self) { try await session.me() }
        #expect(error?.code == .invalidToken)
        #expect(server.count("/auth/me") == 2)
        #expect(server.count("/auth/refresh") == 1)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
    }

    @Test("100 concurrent requests with a known-expired token share exactly one refresh")
    func singleFlightOnExpiry() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        clock.advance(by: 901)
        try await withThrowingTaskGroup(of: MeResponse.self) { group in
            for _ in 0..<100 { group.addTask { try await session.me() } }
            for try await me in group { #expect(me.sub == FakeAuthServer.user.id) }
        }
        #expect(server.count("/auth/refresh") == 1)
        #expect(server.requests.filter { $0.path == "/auth/me" }.allSatisfy { $0.authorization == "Bearer access-2" })
        #expect(server.count("/auth/me") == 100)
    }

    @Test("100 concurrent requests that all get a 401 share exactly one refresh")
    func singleFlightOn401() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        server.revokeAccessTokens()
        // Hold the first 100 requests until all were sent with the old token, so all 100 get a 401.
        let gate = server.gate("/auth/me")
        try await withThrowingTaskGroup(of: MeResponse.self) { group in
            for _ in 0..<100 { group.addTask { try await session.me() } }
            await gate.waitForArrivals(100)
            await gate.open()
            for try await _ in group {}
        }
        #expect(server.count("/auth/refresh") == 1)
        let authorizations = server.requests.filter { $0.path == "/auth/me" }.map(\.authorization)
        #expect(authorizations.count == 200)
        #expect(authorizations.prefix(100).allSatisfy { $0 == "Bearer access-1" })
        #expect(authorizations.suffix(100).allSatisfy { $0 == "Bearer access-2" })
    }

    @Test("a 401 for a token already replaced retries with the newer one without refreshing again")
    func staleTokenRetriesWithoutRefresh() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        let gate = server.gate("/auth/me")
        async let me = session.me()
        await gate.waitForArrivals(1)
        try await session.refresh()
        server.revokeAccessTokens()
        server.configure { $0.validAccess.insert("access-2") }
        await gate.open()
        #expect(try await me.sub == FakeAuthServer.user.id)
        #expect(server.count("/auth/refresh") == 1)
        #expect(
            server.requests.filter { $0.path == "/auth/me" }.map(\.authorization) == [
                "Bearer access-1", "Bearer access-2",
            ])
    }

    @Test("invalid_grant on refresh signs out, clears the tokens and publishes each state")
    func invalidGrantSignsOut() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        let updates = await session.stateUpdates()
        server.configure { $0.refreshFailure = (401, .invalidGrant) }
        server.revokeAccessTokens()
        await #expect(throws: TokenClientError.signedOut) { try await session.me() }
        #expect(store.load() == nil)
        #expect(await session.state == .signedOut)
        var seen: [SessionState] = []
        for await state in updates {
            seen.append(state)
            if state == .signedOut { break }
        }
        #expect(seen == [.signedIn(FakeAuthServer.user), .refreshing, .signedOut])
        await #expect(throws: TokenClientError.signedOut) { try await session.me() }
        #expect(server.count("/auth/refresh") == 1)
    }

    @Test("a refresh that fails for another reason keeps the session")
    func transientRefreshFailureKeepsSession() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        server.configure { $0.refreshFailure = (503, .unavailable) }
        let error = await #expect(throws: TokenClientError.self) { try await session.refresh() }
        #expect(error?.code == .unavailable)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        #expect(store.load()?.refreshToken == "refresh-1")
    }

    @Test("when the early refresh fails, the not yet expired token is still used")
    func earlyRefreshFailureKeepsToken() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        clock.advance(by: 880)
        server.configure { $0.refreshFailure = (503, .unavailable) }
        #expect(try await session.me().sub == FakeAuthServer.user.id)
        // A 503 is retried once at once, then the session backs off.
        #expect(server.count("/auth/refresh") == 2)
        #expect(server.requests.last?.authorization == "Bearer access-1")
        clock.advance(by: 20)
        let error = await #expect(throws: TokenClientError.self) { try await session.me() }
        #expect(error?.code == .unavailable)
    }

    @Test("requests without a session throw signedOut without touching the network")
    func signedOutRequests() async throws {
        await #expect(throws: TokenClientError.signedOut) { try await session.me() }
        await #expect(throws: TokenClientError.signedOut) { try await session.refresh() }
        #expect(server.requests.isEmpty)
    }

    @Test("logout sends scope, bearer and refresh token, then clears the tokens")
    func logoutClearsTokens() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        try await session.logout()
        let logout = try #require(server.requests.last)
        #expect(logout.path == "/auth/logout")
        #expect(logout.query == "scope=local")
        #expect(logout.authorization == "Bearer access-1")
        let body = try JSONDecoder().decode(RefreshRequest.self, from: try #require(logout.body))
        #expect(body.refreshToken == "refresh-1")
        #expect(store.load() == nil)
        #expect(await session.state == .signedOut)
    }

    @Test("logout clears the tokens even when the server call fails")
    func logoutClearsOnFailure() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        server.configure { $0.logoutStatus = 500 }
        await #expect(throws: TokenClientError.self) { try await session.logout(scope: .global) }
        #expect(server.requests.last?.query == "scope=global")
        #expect(store.load() == nil)
        #expect(await session.state == .signedOut)
    }

    @Test("logout of the other sessions keeps this one")
    func logoutOthersKeepsSession() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        try await session.logout(scope: .others)
        #expect(server.requests.last?.query == "scope=others")
        #expect(store.load()?.accessToken == "access-1")
        #expect(await session.state.isSignedIn)
    }

    @Test("a session restored from its store is signed in and usable without login")
    func restoresFromStore() async throws {
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        let restored = AuthSession(
            baseURL: session.baseURL,
            transport: server,
            store: store,
            now: clock.closure
        )
        #expect(await restored.state == .signedIn(FakeAuthServer.user))
        #expect(try await restored.me().email == FakeAuthServer.user.email)
    }
}
