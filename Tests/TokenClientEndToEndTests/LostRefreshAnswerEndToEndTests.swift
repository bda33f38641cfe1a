import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientCore
import TokenClientTesting
import TokenServiceTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The mobile-network failure the client's refresh is built for, against the real server: the server rotates, the
/// answer never reaches the app.
@Suite("a lost refresh answer against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct LostRefreshAnswerEndToEndTests {
    /// Forwards to the real server, but throws away the answers to the first `lose` refreshes (the server has
    /// rotated by then), as a connection that drops after the request was sent does.
    final class LosingTransport: HTTPTransport {
        let inner: any HTTPTransport
        let remaining: Locked<Int>

        init(inner: any HTTPTransport, lose: Int) {
            self.inner = inner
            self.remaining = Locked(lose)
        }

        func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
            let answer = try await inner.send(request)
            let lost =
                request.url.path.hasSuffix("/auth/refresh")
                && remaining.withLock { count in
                    guard count > 0 else { return false }
                    count -= 1
                    return true
                }
            if lost { throw URLError(.networkConnectionLost) }
            return answer
        }
    }

    @Test("the answer to a rotation is lost: the immediate retry converges inside the grace window, the user stays in")
    func lostAnswerConverges() async throws {
        let clock = TestClock()
        try await withTestServer(now: clock.closure) { live in
            let store = InMemoryTokenStore()
            try await live.signUp(live.session(store: store, now: clock.closure))
            let session = AuthSession(
                baseURL: live.baseURL, transport: LosingTransport(inner: TestServer.transport, lose: 1), store: store,
                now: clock.closure)
            let before = try #require(store.load())
            let events = Recorder(await session.events())

            try await session.refresh()

            // Both requests reached the server: the first rotated, the second (the spent token, within the grace
            // window) got the same new pair back.
            #expect(live.refreshesAnswered == 2)
            #expect(live.refreshesRefused == 0)
            #expect(live.reuseDetected == 0)
            let after = try #require(store.load())
            #expect(after.refreshToken != before.refreshToken)
            #expect(try await session.me().sub == before.user?.id)
            // The converged pair is the live one: it refreshes again.
            try await session.refresh()
            #expect(live.refreshesRefused == 0)
            #expect(await session.state.isSignedIn)
            #expect(
                !(await events.settled()).contains {
                    if case .signedOut = $0 { true } else { false }
                })
        }
    }

    @Test("with the server's grace window at 0 a lost answer cannot converge: the retry is refused as reuse")
    func withoutGraceTheRetryIsReuse() async throws {
        let clock = TestClock()
        try await withTestServer(
            environment: ["TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "0"], now: clock.closure
        ) { live in
            let store = InMemoryTokenStore()
            try await live.signUp(live.session(store: store, now: clock.closure))
            let session = AuthSession(
                baseURL: live.baseURL, transport: LosingTransport(inner: TestServer.transport, lose: 1), store: store,
                now: clock.closure)
            let events = Recorder(await session.events())

            await #expect(throws: TokenClientError.signedOut) { try await session.refresh() }
            #expect(live.reuseDetected == 1)
            #expect(await events.settled().contains(.signedOut(reason: .revoked)))
        }
    }
}
