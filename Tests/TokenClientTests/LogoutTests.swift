import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logout never hangs: not on a refresh in flight, not on a server that cannot be reached; a failed "sign out
/// everywhere" is kept and sent again.
@Suite("Logout", .timeLimit(.minutes(1)))
struct LogoutTests {
    @Test("logout while a refresh hangs returns at once, and the refresh's late answer does not sign back in")
    func logoutDuringHangingRefresh() async throws {
        let store = InMemoryTokenStore()
        let fixture = SessionFixture(store: store)
        try await fixture.signIn()
        let events = Recorder(await fixture.session.events())
        let gate = fixture.server.gate("/auth/refresh")
        fixture.clock.advance(by: 901)
        let request = Task { try await fixture.session.me() }
        await gate.waitForArrivals(1)

        let started = ContinuousClock.now
        try await fixture.session.logout()
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(await fixture.session.state == .signedOut)
        #expect(store.load() == nil)
        #expect(fixture.server.count("/auth/logout") == 1)

        await gate.open()
        _ = await request.result
        #expect(await fixture.session.state == .signedOut)
        #expect(fixture.session.snapshot.accessToken == nil)
        #expect(store.load() == nil)
        let seen = await events.settled()
        #expect(seen.filter(\.isSignOut) == [.signedOut(reason: .userAction)])
        #expect(!seen.contains(.refreshed))
    }

    @Test("logout with the transport failing returns at once, signed out, with reason userAction")
    func logoutWithTransportFailing() async throws {
        let store = InMemoryTokenStore()
        let fixture = SessionFixture(store: store)
        try await fixture.signIn()
        let events = Recorder(await fixture.session.events())
        fixture.server.configure { $0.unreachablePaths = ["*"] }

        let started = ContinuousClock.now
        let error = await #expect(throws: TokenClientError.self) { try await fixture.session.logout() }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(error?.isTransport == true)
        #expect(await fixture.session.state == .signedOut)
        #expect(fixture.session.snapshot == SessionSnapshot(state: .signedOut))
        #expect(store.load() == nil)
        #expect(await events.wait { !$0.isEmpty } == [.signedOut(reason: .userAction)])
    }

    @Test("logout to a server that never answers returns within refreshTimeout")
    func logoutWithHangingServer() async throws {
        let fixture = SessionFixture(refreshTimeout: 0.2)
        try await fixture.signIn()
        let gate = fixture.server.gate("/auth/logout")

        let started = ContinuousClock.now
        await #expect(throws: TokenClientError.self) { try await fixture.session.logout(scope: .global) }
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(await fixture.session.state == .signedOut)
        await gate.open()
    }

    @Test("a failed global logout is sent again by retryPendingLogouts(), once")
    func failedGlobalLogoutRetried() async throws {
        let fixture = try await Self.signedInThenLostGlobalLogout()
        #expect(await fixture.session.state == .signedOut)

        await fixture.session.retryPendingLogouts()
        let logouts = fixture.server.requests.filter { $0.path == "/auth/logout" }
        #expect(logouts.count == 2)
        #expect(logouts.map(\.query) == ["scope=global", "scope=global"])
        let body = try JSONDecoder().decode(RefreshRequest.self, from: try #require(logouts.last?.body))
        #expect(body.refreshToken == "refresh-1")

        await fixture.session.retryPendingLogouts()
        #expect(fixture.server.count("/auth/logout") == 2)
    }

    @Test("a failed global logout is sent again before the next login's request")
    func failedGlobalLogoutBeforeNextLogin() async throws {
        let fixture = try await Self.signedInThenLostGlobalLogout()

        try await fixture.signIn(as: FakeAuthServer.otherUser.email ?? "")
        let paths = fixture.server.requests.map { "\($0.method) \($0.path) \($0.query ?? "")" }
        #expect(
            paths == [
                "POST /auth/login ", "POST /auth/logout scope=global", "POST /auth/logout scope=global",
                "POST /auth/login ",
            ])
        let retried = try #require(fixture.server.requests.dropFirst(2).first)
        #expect(
            try JSONDecoder().decode(RefreshRequest.self, from: try #require(retried.body)).refreshToken == "refresh-1")
        #expect(await fixture.session.state == .signedIn(FakeAuthServer.otherUser))
    }

    @Test("a pending logout is never sent with the next user's tokens")
    func failedLogoutNeverCarriesNewTokens() async throws {
        let fixture = try await Self.signedInThenLostGlobalLogout()
        try await fixture.signIn(as: FakeAuthServer.otherUser.email ?? "")
        await fixture.session.retryPendingLogouts()

        let logouts = fixture.server.requests.filter { $0.path == "/auth/logout" }
        #expect(logouts.allSatisfy { $0.authorization == nil || $0.authorization == "Bearer access-1" })
        #expect(try await fixture.session.me().sub == FakeAuthServer.otherUser.id)
    }

    /// A fixture that signed in, then signed out everywhere while `/auth/logout` could not be reached: the logout
    /// threw and is pending. The server is reachable again when this returns.
    private static func signedInThenLostGlobalLogout() async throws -> SessionFixture {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.server.configure { $0.unreachablePaths = ["/auth/logout"] }
        await #expect(throws: TokenClientError.self) { try await fixture.session.logout(scope: .global) }
        fixture.server.configure { $0.unreachablePaths = [] }
        return fixture
    }
}
