import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// `TokenClient` against the real server: everything goes through `AuthSession` and the token providers;
/// raw requests only check from outside which tokens the server still honours.
@Suite("TokenClient against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct ClientServerFlowTests {
    @Test("login, me, expiry, transparent refresh, Moss and Stream tokens, logout: every token dead afterwards")
    func fullFlow() async throws {
        let serverClock = TestClock()
        let upstream = CountingMossUpstream()
        try await withTestServer(mossUpstream: upstream, now: serverClock.closure) { live in
            // The client's clock stays put: it learns that the access token expired only from the server's 401.
            let clientClock = TestClock()
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let store = FileTokenStore(url: folder.url.appending(path: "tokens.json"))
            let session = live.session(store: store, now: clientClock.closure)
            let email = "flow@example.com"
            try await live.signUp(session, email: email)
            #expect(await session.state.isSignedIn)
            #expect(try folder.mode(of: store.url) == 0o600)
            let me = try await session.me()
            #expect(me.email == nil, "a self-registered email is unverified: neither the token nor /auth/me asserts it")
            #expect(!me.sub.isEmpty)
            let first = try #require(try store.load())

            serverClock.advance(by: 900 + 30 + 1)
            let refreshesBefore = live.refreshTokensIssued
            #expect(try await live.rawStatus("GET", "auth/me", bearer: first.accessToken) == (401, "invalid_token"))
            #expect(try await session.me().sub == me.sub)
            #expect(live.refreshTokensIssued == refreshesBefore + 1)
            let second = try #require(try store.load())
            #expect(second.accessToken != first.accessToken)
            #expect(second.refreshToken != first.refreshToken)
            #expect(try await live.rawStatus("GET", "auth/me", bearer: second.accessToken).status == 200)

            let moss = MossTokenProvider(session: session, now: clientClock.closure)
            #expect(try await moss.getAuthHeader() == "moss-project-token-1")
            #expect(try await moss.getAuthHeader() == "moss-project-token-1")
            #expect(upstream.callCount == 1)

            let stream = StreamTokenProvider(session: session, now: clientClock.closure)
            let (header, payload) = try IndependentJWS.verify(try await stream.token(), secret: TestServer.streamSecret)
            #expect(header == #"{"alg":"HS512","typ":"JWT","kid":"stream-1"}"#)
            #expect(Set(payload.keys) == ["exp", "iat", "ids"])
            // A self-registered email is not a customer id: `registered` is the user id (issue 13).
            #expect(payload["ids"] as? [String: String] == ["registered": me.sub])
            let iat = try #require(payload["iat"] as? Int)
            #expect(iat == Int(serverClock.now.timeIntervalSince1970))
            #expect(try #require(payload["exp"] as? Int) - iat == 900)

            let last = try #require(try store.load())
            try await session.logout()
            #expect(await session.state == .signedOut)
            #expect(try store.load() == nil)
            for access in [second.accessToken, last.accessToken] {
                #expect(try await live.rawStatus("GET", "auth/me", bearer: access) == (401, "invalid_token"))
                #expect(try await live.rawStatus("POST", "stream-token", bearer: access).status == 401)
            }
            for refresh in [first.refreshToken, last.refreshToken] {
                #expect(try await live.refreshStatus(refresh) == (401, "invalid_grant"))
            }
            await #expect(throws: TokenClientError.signedOut) { try await session.me() }
            await moss.invalidate()
            await #expect(throws: TokenClientError.signedOut) { try await moss.getAuthHeader() }
            await stream.invalidate()
            await #expect(throws: TokenClientError.signedOut) { try await stream.token() }
        }
    }

    @Test(
        "100 concurrent requests with an expired access token cause exactly one refresh",
        arguments: [false, true])
    func concurrentRequestsShareOneRefresh(clientSeesExpiry: Bool) async throws {
        let serverClock = TestClock()
        try await withTestServer(mossUpstream: CountingMossUpstream(), now: serverClock.closure) { live in
            let clientClock = TestClock()
            let session = live.session(now: clientClock.closure)
            try await live.signUp(session)
            let issuedBefore = live.refreshTokensIssued
            serverClock.advance(by: 900 + 30 + 1)
            // Either the client knows the token expired (refreshes before sending) or learns it from 401s.
            if clientSeesExpiry { clientClock.advance(by: 900 + 30 + 1) }
            let subjects = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 { group.addTask { try await session.me().sub } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(subjects.count == 100)
            #expect(Set(subjects).count == 1)
            #expect(live.refreshTokensIssued - issuedBefore == 1)
            #expect(live.refreshesAnswered == 1)
            #expect(live.refreshesRefused == 0)
            #expect(await session.state.isSignedIn)
        }
    }

    @Test(
        "a client holding a rotated-away refresh token is refused and signs out cleanly, and so does the other",
        arguments: [0, 10])
    func replayedRefreshTokenSignsOut(graceSeconds: Int) async throws {
        let serverClock = TestClock()
        let environment = ["TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "\(graceSeconds)"]
        try await withTestServer(
            environment: environment, mossUpstream: CountingMossUpstream(), now: serverClock.closure
        ) { live in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let storeA = FileTokenStore(url: folder.url.appending(path: "a.json"))
            let storeB = FileTokenStore(url: folder.url.appending(path: "b.json"))
            let first = live.session(store: storeA, now: serverClock.closure)
            try await live.signUp(first)
            // A second client restored from a copy of the same tokens.
            try storeB.save(try #require(try storeA.load()))
            let second = live.session(store: storeB, now: serverClock.closure)
            #expect(await second.state.isSignedIn)

            try await first.refresh()
            serverClock.advance(by: TimeInterval(graceSeconds) + 1)
            await #expect(throws: TokenClientError.signedOut) { try await second.refresh() }
            #expect(await second.state == .signedOut)
            #expect(try storeB.load() == nil)
            #expect(live.reuseDetected == 1)

            // The reuse revoked the whole session: the first client is signed out at its next request.
            await #expect(throws: TokenClientError.signedOut) { try await first.me() }
            #expect(await first.state == .signedOut)
            #expect(try storeA.load() == nil)
        }
    }
}
