import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// Logout scopes and session management through `AuthSession`, against the real server.
@Suite("TokenClient sessions against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct SessionEndToEndTests {
    /// Signs `count` clients in as one new user.
    private func clients(_ count: Int, on live: TestServer, clock: TestClock) async throws -> [AuthSession] {
        let email = "multi-\(UUID().uuidString.prefix(8))@example.com"
        let sessions = (0..<count).map { _ in live.session(now: clock.closure) }
        try await sessions[0].register(email: email, password: TestServer.password)
        for session in sessions { try await session.login(email: email, password: TestServer.password) }
        return sessions
    }

    @Test("a logout sent after the access token expired still ends the session on the server")
    func logoutWithExpiredAccessToken() async throws {
        let clock = TestClock()
        try await withTestServer(mossUpstream: CountingMossUpstream(), now: clock.closure) { live in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let store = FileTokenStore(url: folder.url.appending(path: "tokens.json"))
            let session = live.session(store: store, now: clock.closure)
            try await live.signUp(session)
            let tokens = try #require(try store.load())
            clock.advance(by: 900 + 30 + 1)
            try await session.logout()
            #expect(await session.state == .signedOut)
            #expect(try store.load() == nil)
            #expect(try await live.refreshStatus(tokens.refreshToken) == (401, "invalid_grant"))
            #expect(live.refreshTokensIssued == 1)
        }
    }

    @Test("logout scope=global signs every client of the user out at its next request; others keeps this one")
    func logoutScopes() async throws {
        let clock = TestClock()
        try await withTestServer(mossUpstream: CountingMossUpstream(), now: clock.closure) { live in
            let sessions = try await clients(3, on: live, clock: clock)
            try await sessions[0].logout(scope: .others)
            #expect(await sessions[0].state.isSignedIn)
            _ = try await sessions[0].me()
            for other in sessions.dropFirst() {
                await #expect(throws: TokenClientError.signedOut) { try await other.me() }
                #expect(await other.state == .signedOut)
            }

            let more = try await clients(2, on: live, clock: clock)
            try await more[0].logout(scope: .global)
            #expect(await more[0].state == .signedOut)
            await #expect(throws: TokenClientError.signedOut) { try await more[1].me() }
            #expect(await more[1].state == .signedOut)
            _ = try await sessions[0].me()
        }
    }

    @Test("sessions() lists the user's live sessions and revokeSession ends another client's session")
    func listAndRevokeSessions() async throws {
        let clock = TestClock()
        try await withTestServer(mossUpstream: CountingMossUpstream(), now: clock.closure) { live in
            let sessions = try await clients(2, on: live, clock: clock)
            let listed = try await sessions[0].sessions()
            #expect(listed.count == 2)
            #expect(listed.filter(\.current).count == 1)
            let other = try #require(listed.first { !$0.current })
            try await sessions[0].revokeSession(id: other.id)
            await #expect(throws: TokenClientError.signedOut) { try await sessions[1].me() }
            #expect(try await sessions[0].sessions().map(\.id) == listed.filter(\.current).map(\.id))
            await #expect(throws: TokenClientError.self) { try await sessions[0].revokeSession(id: other.id) }
        }
    }

    @Test("sessions() follows the server's Link rel=next pages and returns every live session")
    func sessionsFollowPages() async throws {
        let clock = TestClock()
        let environment = [
            "TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "1000", "TOKENVEND_SESSION_MAX_PER_USER": "1000",
        ]
        try await withTestServer(environment: environment, mossUpstream: CountingMossUpstream(), now: clock.closure) {
            live in
            let session = live.session(now: clock.closure)
            let email = "pages-\(UUID().uuidString.prefix(8))@example.com"
            try await live.signUp(session, email: email)
            // 104 more sessions: more than one page of 100.
            for _ in 0..<104 {
                let login = try await live.rawStatus(
                    "POST", "auth/login", json: #"{"email":"\#(email)","password":"\#(TestServer.password)"}"#)
                #expect(login.status == 200)
            }
            let listed = try await session.sessions()
            #expect(listed.count == 105)
            #expect(Set(listed.map(\.id)).count == 105)
            #expect(listed.filter(\.current).count == 1)
        }
    }

    @Test("after logout the token providers serve nothing cached, and the next user gets a token with their own ids")
    func providersFollowTheSignedInUser() async throws {
        let clock = TestClock()
        try await withTestServer(mossUpstream: CountingMossUpstream(), now: clock.closure) { live in
            let session = live.session(now: clock.closure)
            let stream = StreamTokenProvider(session: session, now: clock.closure)
            let moss = MossTokenProvider(session: session, now: clock.closure)
            try await live.signUp(session, email: "first@example.com")
            let first = try IndependentJWS.verify(try await stream.token(), secret: TestServer.streamSecret)
            let firstID = try await session.me().sub
            #expect(first.payload["ids"] as? [String: String] == ["registered": firstID])
            _ = try await moss.getAuthHeader()

            try await session.logout()
            await #expect(throws: TokenClientError.signedOut) { try await stream.token() }
            await #expect(throws: TokenClientError.signedOut) { try await moss.getAuthHeader() }

            try await live.signUp(session, email: "second@example.com")
            let second = try IndependentJWS.verify(try await stream.token(), secret: TestServer.streamSecret)
            let secondID = try await session.me().sub
            #expect(firstID != secondID)
            #expect(second.payload["ids"] as? [String: String] == ["registered": secondID])
            #expect(try await moss.getAuthHeader() == "moss-project-token-1")
        }
    }
}
