import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A refresh on a mobile network: lost answers, hanging requests, outages with `Retry-After`, and 401s that are
/// not the server's `invalid_grant`. None of them signs the user out.
@Suite("Refresh resilience", .timeLimit(.minutes(1)))
struct RefreshResilienceTests {
    @Test("a rotation whose answer is lost is retried at once, converges inside the grace window, stays signed in")
    func lostAnswerConverges() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        let events = Recorder(await fixture.session.events())
        fixture.server.configure { $0.refreshAnswersToLose = 1 }
        fixture.clock.advance(by: 901)

        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.presentedRefreshTokens == ["refresh-1", "refresh-1"])
        #expect(fixture.server.state.withLock { $0.reuseDetected } == 0)
        #expect(fixture.authorizations("/auth/me") == ["Bearer access-2"])
        #expect(await fixture.session.state == .signedIn(FakeAuthServer.user))
        #expect(fixture.session.snapshot.accessToken == "access-2")
        let seen = await events.settled()
        #expect(seen.contains(.refreshed))
        #expect(!seen.contains { $0.isSignOut })
    }

    @Test("two lost answers in a row throw and keep the session; the backoff holds the next refresh until it passes")
    func twoLostAnswersBackOff() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        let events = Recorder(await fixture.session.events())
        fixture.server.configure { $0.refreshAnswersToLose = 2 }
        fixture.clock.advance(by: 901)

        let first = await #expect(throws: TokenClientError.self) { try await fixture.session.me() }
        #expect(first?.isTransport == true)
        #expect(fixture.presentedRefreshTokens == ["refresh-1", "refresh-1"])
        #expect(await fixture.session.state.isSignedIn)

        // Within the backoff (1 s after two failures): the last error again, and no request at all.
        let held = await #expect(throws: TokenClientError.self) { try await fixture.session.me() }
        #expect(held?.isTransport == true)
        #expect(fixture.server.count("/auth/refresh") == 2)
        #expect(fixture.server.count("/auth/me") == 0)

        fixture.clock.advance(by: 1)
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.presentedRefreshTokens == ["refresh-1", "refresh-1", "refresh-1"])
        #expect(fixture.server.state.withLock { $0.reuseDetected } == 0)
        #expect(await fixture.session.state == .signedIn(FakeAuthServer.user))
        #expect(!(await events.settled()).contains { $0.isSignOut })
    }

    @Test("a refresh that hangs past refreshTimeout is retried once, then throws; never signed out")
    func hangingRefreshTimesOut() async throws {
        let fixture = SessionFixture(refreshTimeout: 0.2)
        try await fixture.signIn()
        let events = Recorder(await fixture.session.events())
        let gate = fixture.server.gate("/auth/refresh")
        fixture.clock.advance(by: 901)

        let started = ContinuousClock.now
        await #expect(throws: TokenClientError.self) { try await fixture.session.me() }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(400))
        #expect(elapsed < .seconds(2))
        #expect(fixture.server.count("/auth/refresh") == 2)
        let timeouts = fixture.server.requests.filter { $0.path == "/auth/refresh" }.map(\.timeoutInterval)
        #expect(timeouts == [0.2, 0.2])
        #expect(await fixture.session.state.isSignedIn)
        #expect(fixture.session.snapshot.accessToken == "access-1")
        #expect(!(await events.settled()).contains { $0.isSignOut })
        await gate.open()
    }

    @Test("503 with Retry-After: 30 twice: no refresh request before 30 s have passed, then it refreshes")
    func outageHonoursRetryAfter() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.server.configure {
            $0.refreshOutages = 2
            $0.refreshRetryAfter = 30
        }
        fixture.clock.advance(by: 901)

        let error = await #expect(throws: TokenClientError.self) { try await fixture.session.me() }
        #expect(error == .server(status: 503, body: ErrorBody(error: .unavailable, message: "test unavailable")))
        #expect(fixture.server.count("/auth/refresh") == 2)

        for _ in 0..<3 {
            fixture.clock.advance(by: 9)
            await #expect(throws: TokenClientError.self) { try await fixture.session.me() }
            #expect(fixture.server.count("/auth/refresh") == 2)
        }
        fixture.clock.advance(by: 2)
        await #expect(throws: TokenClientError.self) { try await fixture.session.accessToken() }
        #expect(fixture.server.count("/auth/refresh") == 2)

        fixture.clock.advance(by: 1)
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.server.count("/auth/refresh") == 3)
        #expect(await fixture.session.state == .signedIn(FakeAuthServer.user))
    }

    @Test("a 401 without invalid_grant at refresh (a proxy) keeps the session and throws the status")
    func proxyUnauthorizedAtRefreshKeepsSession() async throws {
        let store = InMemoryTokenStore()
        let fixture = SessionFixture(store: store)
        try await fixture.signIn()
        let events = Recorder(await fixture.session.events())
        fixture.server.configure { $0.proxyRejectedPaths = ["/auth/refresh"] }
        fixture.clock.advance(by: 901)

        let error = await #expect(throws: TokenClientError.self) { try await fixture.session.me() }
        #expect(error == .server(status: 401, body: nil))
        #expect(await fixture.session.state == .signedIn(FakeAuthServer.user))
        #expect(store.load()?.refreshToken == "refresh-1")
        #expect(!(await events.settled()).contains { $0.isSignOut })

        fixture.server.configure { $0.proxyRejectedPaths = [] }
        fixture.clock.advance(by: 60)
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
    }

    @Test("a 401 at refresh with another error code than invalid_grant keeps the session")
    func otherUnauthorizedAtRefreshKeepsSession() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.server.configure { $0.refreshFailure = (401, .invalidToken) }
        fixture.clock.advance(by: 901)

        let error = await #expect(throws: TokenClientError.self) { try await fixture.session.me() }
        #expect(error?.code == .invalidToken)
        #expect(await fixture.session.state.isSignedIn)
        #expect(fixture.session.snapshot.accessToken == "access-1")
    }

    @Test("a proxy 401 on a request is returned as is: no refresh, no retry, the session kept")
    func proxyUnauthorizedOnRequestIsReturned() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.server.configure { $0.proxyRejectedPaths = ["/auth/me"] }

        let (data, response) = try await fixture.session.send(try SessionFixture.request("auth/me"))
        #expect(response.statusCode == 401)
        #expect(response.value(forHTTPHeaderField: "WWW-Authenticate") == nil)
        #expect(String(decoding: data, as: UTF8.self).contains("<html>"))
        #expect(fixture.server.count("/auth/me") == 1)
        #expect(fixture.server.count("/auth/refresh") == 0)
        #expect(await fixture.session.state == .signedIn(FakeAuthServer.user))
    }

    @Test("the server's own 401 for a refused token carries the invalid_token challenge and is refreshed once")
    func invalidTokenChallengeRefreshes() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.server.revokeAccessTokens()
        var refused = try SessionFixture.request("auth/me")
        refused.setValue("Bearer access-1", forHTTPHeaderField: "Authorization")
        let challenge = try await fixture.server.send(try TransportRequest(refused)).1
            .value(forHTTPHeaderField: "WWW-Authenticate")
        #expect(challenge == #"Bearer realm="tokenvend", error="invalid_token""#)
        let anonymous = try await fixture.server.send(try TransportRequest(try SessionFixture.request("auth/me")))
        #expect(anonymous.1.value(forHTTPHeaderField: "WWW-Authenticate") == #"Bearer realm="tokenvend""#)

        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.authorizations("/auth/me").suffix(2) == ["Bearer access-1", "Bearer access-2"])
        #expect(fixture.server.count("/auth/refresh") == 1)
    }
}
