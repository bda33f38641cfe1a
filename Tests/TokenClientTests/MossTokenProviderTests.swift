import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("MossTokenProvider")
struct MossTokenProviderTests {
    let clock = TestClock()
    let server: FakeAuthServer
    let session: AuthSession
    let moss: MossTokenProvider<AuthSession>

    init() async throws {
        server = FakeAuthServer(clock: clock)
        session = AuthSession(
            baseURL: try #require(URL(string: "https://api.example.test/")),
            transport: server,
            now: clock.closure
        )
        moss = MossTokenProvider(session: session, now: clock.closure)
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
    }

    @Test("getAuthHeader returns the raw token, fetched with the user's bearer token")
    func rawTokenWithoutPrefix() async throws {
        let header = try await moss.getAuthHeader()
        #expect(header == "moss-1")
        #expect(!header.hasPrefix("Bearer"))
        let fetch = try #require(server.requests.last)
        #expect(fetch.method == "GET" && fetch.path == "/moss-token")
        #expect(fetch.authorization == "Bearer access-1")
    }

    @Test("the token is served from cache until 60 s before expiresIn, then fetched again")
    func cachesUntilMargin() async throws {
        #expect(try await moss.getAuthHeader() == "moss-1")
        clock.advance(by: 239)
        #expect(try await moss.getAuthHeader() == "moss-1")
        #expect(server.count("/moss-token") == 1)
        clock.advance(by: 1)
        #expect(try await moss.getAuthHeader() == "moss-2")
        #expect(server.count("/moss-token") == 2)
        let current = try await moss.currentToken()
        #expect(current.expiresAt == clock.now.addingTimeInterval(300))
        #expect(current.refreshAt == clock.now.addingTimeInterval(240))
    }

    @Test("100 concurrent callers on a cold cache share one fetch")
    func coalescesCallers() async throws {
        let gate = server.gate("/moss-token")
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 { group.addTask { try await moss.getAuthHeader() } }
            await gate.waitForArrivals(1)
            await gate.open()
            var tokens: [String] = []
            for try await token in group { tokens.append(token) }
            return tokens
        }
        #expect(tokens.count == 100)
        #expect(Set(tokens) == ["moss-1"])
        #expect(server.count("/moss-token") == 1)
    }

    @Test("an upstream failure is thrown and not cached")
    func failureNotCached() async throws {
        server.configure { $0.mossFailure = (502, .upstreamError) }
        let error = await #expect(throws: TokenClientError.self) { try await moss.getAuthHeader() }
        #expect(error?.code == .upstreamError)
        server.configure { $0.mossFailure = nil }
        #expect(try await moss.getAuthHeader() == "moss-1")
    }

    @Test("invalidate forces the next call to fetch")
    func invalidateRefetches() async throws {
        #expect(try await moss.getAuthHeader() == "moss-1")
        await moss.invalidate()
        #expect(try await moss.getAuthHeader() == "moss-2")
    }

    @Test("a Moss fetch after the access token expired refreshes the session once")
    func refreshesSessionFirst() async throws {
        clock.advance(by: 901)
        #expect(try await moss.getAuthHeader() == "moss-1")
        #expect(server.count("/auth/refresh") == 1)
        #expect(server.requests.last?.authorization == "Bearer access-2")
    }
}
