import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// Sessions sharing one `FileTokenStore`, many concurrent requests, and a logout with no server, against the real
/// server.
@Suite("TokenClient refresh across sessions against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct SharedStoreEndToEndTests {
    static let environment = ["TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "1000"]

    /// How the two sessions come to want a refresh.
    enum Expiry {
        /// The clock (the server's too) moves past the access token's lifetime.
        case clock
        /// A leeway longer than the access token's lifetime: a session wants to refresh whenever it needs a token.
        case leeway
    }

    /// A session on `live` and `store`.
    static func session(_ live: TestServer, store: any TokenStore, clock: TestClock, expiry: Expiry) -> AuthSession {
        AuthSession(
            baseURL: live.baseURL, transport: TestServer.transport, store: store,
            refreshLeeway: expiry == .leeway ? 10_000 : 30, now: clock.closure)
    }

    /// Two sessions on two `FileTokenStore`s for one file (two processes), both holding an access token they
    /// want to refresh, call `/auth/me` at once.
    static func twoProcessesRefresh(grace: String, expiry: Expiry) async throws {
        let clock = TestClock()
        var environment = Self.environment
        environment["TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS"] = grace
        try await withTestServer(environment: environment, now: clock.closure) { live in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let file = folder.url.appending(path: "tokens.json")
            let first = live.session(store: FileTokenStore(url: file), now: clock.closure)
            try await live.signUp(first)
            let signedIn = try #require(try FileTokenStore(url: file).load())
            let issuedBefore = live.refreshTokensIssued

            let app = session(live, store: FileTokenStore(url: file), clock: clock, expiry: expiry)
            let widget = session(live, store: FileTokenStore(url: file), clock: clock, expiry: expiry)
            if expiry == .clock { clock.advance(by: 901) }
            async let appMe = app.me()
            async let widgetMe = widget.me()
            let (appAnswer, widgetAnswer) = try await (appMe, widgetMe)
            #expect(appAnswer.sub == widgetAnswer.sub)

            #expect(live.refreshesAnswered == 1)
            #expect(live.refreshTokensIssued == issuedBefore + 1)
            #expect(live.refreshesRefused == 0)
            #expect(live.reuseDetected == 0)
            #expect(await app.state.isSignedIn)
            #expect(await widget.state.isSignedIn)
            let shared = try #require(try FileTokenStore(url: file).load())
            #expect(shared.refreshToken != signedIn.refreshToken)
            #expect(app.snapshot.accessToken == shared.accessToken)
            #expect(widget.snapshot.accessToken == shared.accessToken)
            // The pair both ended with is live on the server: the session was not revoked.
            #expect(try await live.rawStatus("GET", "auth/me", bearer: shared.accessToken).status == 200)
            #expect(try await app.me().sub == appAnswer.sub)
            #expect(try await widget.me().sub == appAnswer.sub)
            #expect(live.refreshesRefused == 0)
            #expect(live.reuseDetected == 0)
        }
    }

    @Test("two sessions on one FileTokenStore with an expired token: one refresh in all, both keep the same pair")
    func twoProcessesOneRefresh() async throws {
        try await Self.twoProcessesRefresh(grace: "10", expiry: .clock)
    }

    @Test("the same with the server's reuse grace at 0: no refresh token is ever replayed")
    func twoProcessesNoReplay() async throws {
        try await Self.twoProcessesRefresh(grace: "0", expiry: .clock)
    }

    @Test(
        "two sessions whose leeway exceeds the token's lifetime: the second adopts the pair the first wrote, one refresh",
        arguments: ["10", "0"])
    func twoProcessesLongLeeway(grace: String) async throws {
        try await Self.twoProcessesRefresh(grace: grace, expiry: .leeway)
    }

    @Test("200 requests from 20 tasks with an expired access token: one refresh, all 200 succeed")
    func twoHundredRequestsOneRefresh() async throws {
        let clock = TestClock()
        try await withTestServer(environment: Self.environment, now: clock.closure) { live in
            let session = live.session(now: clock.closure)
            try await live.signUp(session)
            let user = try await session.me().sub
            clock.advance(by: 901)
            let answers = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        var subjects: [String] = []
                        for _ in 0..<10 { subjects.append(try await session.me().sub) }
                        return subjects
                    }
                }
                return try await group.reduce([], +)
            }
            #expect(answers.count == 200)
            #expect(answers.allSatisfy { $0 == user })
            #expect(live.refreshesAnswered == 1)
            #expect(live.refreshesRefused == 0)
        }
    }

    @Test("two users' sessions side by side, 200 requests with expired tokens: nobody gets the other's identity")
    func twoUsersNeverMixed() async throws {
        let clock = TestClock()
        try await withTestServer(environment: Self.environment, now: clock.closure) { live in
            let sessions = [live.session(now: clock.closure), live.session(now: clock.closure)]
            for session in sessions { try await live.signUp(session) }
            var subjects: [String] = []
            for session in sessions { subjects.append(try await session.me().sub) }
            let users = subjects
            #expect(Set(users).count == 2)
            clock.advance(by: 901)

            let mixed = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<20 {
                    group.addTask {
                        var wrong = 0
                        for call in 0..<10 {
                            let index = (task + call) % 2
                            if try await sessions[index].me().sub != users[index] { wrong += 1 }
                        }
                        return wrong
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(mixed == 0)
            #expect(live.refreshesAnswered == 2)
            #expect(live.refreshesRefused == 0)
        }
    }

    @Test("logout with the server unreachable returns within a second, signed out")
    func logoutUnreachable() async throws {
        let closed = try #require(URL(string: "http://127.0.0.1:9/"))
        let clock = TestClock()
        let tokens = StoredTokens(
            accessToken: "access", refreshToken: "refresh", accessTokenExpiresAt: clock.now.addingTimeInterval(900))
        let store = InMemoryTokenStore(tokens)
        let session = AuthSession(baseURL: closed, transport: TestServer.transport, store: store, now: clock.closure)
        let events = Recorder(await session.events())

        let started = ContinuousClock.now
        await #expect(throws: TokenClientError.self) { try await session.logout(scope: .global) }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(await session.state == .signedOut)
        #expect(store.load() == nil)
        #expect(await events.wait { !$0.isEmpty } == [.signedOut(reason: .userAction)])
    }
}
