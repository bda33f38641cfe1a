import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

/// Events with reasons, and the synchronous snapshot.
@Suite("Session events and snapshot", .timeLimit(.minutes(1)))
struct SessionEventsTests {
    @Test("login publishes signedIn(user), a refresh publishes refreshed, logout signedOut(userAction)")
    func eventsOfOneSession() async throws {
        let fixture = SessionFixture()
        let events = Recorder(await fixture.session.events())
        try await fixture.signIn()
        try await fixture.session.refresh()
        try await fixture.session.logout()
        let seen = await events.wait { $0.count >= 3 }
        #expect(seen == [.signedIn(FakeAuthServer.user), .refreshed, .signedOut(reason: .userAction)])
    }

    @Test("invalid_grant signs out with reason revoked and clears the store")
    func invalidGrantIsRevoked() async throws {
        let store = InMemoryTokenStore()
        let fixture = SessionFixture(store: store)
        try await fixture.signIn()
        let events = Recorder(await fixture.session.events())
        fixture.server.configure { $0.refreshFailure = (401, .invalidGrant) }
        fixture.clock.advance(by: 901)

        await #expect(throws: TokenClientError.signedOut) { try await fixture.session.me() }
        #expect(await fixture.session.state == .signedOut)
        #expect(store.load() == nil)
        #expect(fixture.session.snapshot == SessionSnapshot(state: .signedOut))
        #expect(await events.wait { !$0.isEmpty } == [.signedOut(reason: .revoked)])
    }

    @Test("a spent refresh token presented after the grace window is refused: revoked")
    func reuseAfterGraceIsRevoked() async throws {
        let store = InMemoryTokenStore()
        let fixture = SessionFixture(store: store)
        try await fixture.signIn()
        let spent = try #require(store.load())
        try await fixture.session.refresh()
        fixture.clock.advance(by: 11)
        let replaying = AuthSession(
            baseURL: SessionFixture.baseURL, transport: fixture.server, store: InMemoryTokenStore(spent),
            now: fixture.clock.closure)
        let events = Recorder(await replaying.events())

        await #expect(throws: TokenClientError.signedOut) { try await replaying.refresh() }
        #expect(fixture.server.state.withLock { $0.reuseDetected } == 1)
        #expect(await events.wait { !$0.isEmpty } == [.signedOut(reason: .revoked)])
        await #expect(throws: TokenClientError.signedOut) { try await fixture.session.refresh() }
    }

    @Test("invalid_grant after the refresh token's expiry signs out with reason expired")
    func invalidGrantAfterExpiryIsExpired() async throws {
        let clock = TestClock()
        let tokens = StoredTokens(
            accessToken: "access-0", refreshToken: "refresh-0", accessTokenExpiresAt: clock.now.addingTimeInterval(-60),
            user: FakeAuthServer.user, refreshTokenExpiresAt: clock.now.addingTimeInterval(-1))
        let fixture = SessionFixture(store: InMemoryTokenStore(tokens), clock: clock)
        let events = Recorder(await fixture.session.events())

        await #expect(throws: TokenClientError.signedOut) { try await fixture.session.me() }
        #expect(fixture.server.count("/auth/refresh") <= 1)
        #expect(await fixture.session.state == .signedOut)
        #expect(await events.wait { !$0.isEmpty } == [.signedOut(reason: .expired)])
    }

    @Test("the snapshot is readable outside async code and follows the state and the token")
    func snapshotFollowsSession() async throws {
        let fixture = SessionFixture()
        let session = fixture.session
        /// A plain synchronous function, as a Moya plugin or an SDK callback would read it.
        func read() -> SessionSnapshot { session.snapshot }
        func readOnAnotherThread() -> SessionSnapshot {
            DispatchQueue.global().sync { session.snapshot }
        }
        #expect(read() == SessionSnapshot(state: .signedOut))

        try await fixture.signIn()
        let signedIn = SessionSnapshot(
            state: .signedIn(FakeAuthServer.user), accessToken: "access-1",
            accessTokenExpiresAt: fixture.clock.now.addingTimeInterval(900), user: FakeAuthServer.user,
            tokenType: "Bearer")
        #expect(read() == signedIn)
        #expect(readOnAnotherThread() == signedIn)

        fixture.clock.advance(by: 100)
        try await session.refresh()
        #expect(read().accessToken == "access-2")
        #expect(read().accessTokenExpiresAt == fixture.clock.now.addingTimeInterval(900))
        #expect(readOnAnotherThread().state == .signedIn(FakeAuthServer.user))

        try await session.logout()
        #expect(read() == SessionSnapshot(state: .signedOut))
    }

    @Test("the snapshot shows refreshing while a refresh is in flight")
    func snapshotWhileRefreshing() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        let gate = fixture.server.gate("/auth/refresh")
        let refresh = Task { try await fixture.session.refresh() }
        await gate.waitForArrivals(1)
        #expect(fixture.session.snapshot.state == .refreshing)
        #expect(fixture.session.snapshot.accessToken == "access-1")
        await gate.open()
        try await refresh.value
        #expect(fixture.session.snapshot.state == .signedIn(FakeAuthServer.user))
    }
}
