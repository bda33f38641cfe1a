import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("StreamTokenProvider")
struct StreamTokenProviderTests {
    let clock = TestClock()
    let server: FakeAuthServer
    let session: AuthSession

    init() async throws {
        server = FakeAuthServer(clock: clock)
        session = AuthSession(
            baseURL: try #require(URL(string: "https://api.example.test/")),
            transport: server,
            now: clock.closure
        )
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
    }

    func provider(_ ids: [String: String]? = ["registered": FakeAuthServer.email]) -> StreamTokenProvider<
        AuthSession
    > {
        StreamTokenProvider(session: session, customerIds: ids, now: clock.closure)
    }

    @Test("the token's exp is read from the JWT payload and sets the refresh 60 s ahead")
    func parsesExp() async throws {
        let stream = provider()
        let token = try await stream.currentToken()
        let exp = Date(timeIntervalSince1970: (clock.now.timeIntervalSince1970 + 900).rounded(.down))
        #expect(token.expiresAt == exp)
        #expect(token.refreshAt == exp.addingTimeInterval(-60))
        #expect(token.token.split(separator: ".").count == 3)
        let request = try #require(server.requests.last)
        #expect(request.method == "POST" && request.path == "/stream-token")
        let body = try JSONDecoder().decode(StreamTokenRequest.self, from: try #require(request.body))
        #expect(body.customerIDs == ["registered": FakeAuthServer.email])
    }

    @Test("the token is reused until 60 s before exp, then replaced ahead of expiry")
    func refreshesAhead() async throws {
        let stream = provider()
        let first = try await stream.token()
        clock.advance(by: 839)
        #expect(try await stream.token() == first)
        #expect(server.count("/stream-token") == 1)
        clock.advance(by: 1)
        let second = try await stream.token()
        #expect(second != first)
        #expect(server.count("/stream-token") == 2)
    }

    @Test("concurrent callers share one fetch")
    func coalesces() async throws {
        let stream = provider()
        let gate = server.gate("/stream-token")
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await stream.token() } }
            await gate.waitForArrivals(1)
            await gate.open()
            var tokens = Set<String>()
            for try await token in group { tokens.insert(token) }
            return tokens
        }
        #expect(tokens.count == 1)
        #expect(server.count("/stream-token") == 1)
    }

    @Test("ids that are not the user's surface as insufficient_scope")
    func wrongScope() async throws {
        let stream = provider(["registered": "mallory@example.com"])
        let error = await #expect(throws: TokenClientError.self) { try await stream.token() }
        #expect(
            error
                == .server(status: 403, body: ErrorBody(error: .insufficientScope, message: "test insufficient_scope")))
    }

    @Test("without customer ids the body omits them")
    func allIds() async throws {
        _ = try await provider(nil).token()
        let body = try #require(server.requests.last?.body)
        #expect(String(decoding: body, as: UTF8.self) == "{}")
    }

    @Test("a token without exp is an invalid response")
    func missingExp() async throws {
        server.configure { $0.streamOmitsExp = true }
        await #expect(throws: TokenClientError.invalidResponse) { try await provider().token() }
    }
}

@Suite("StreamTokenProvider updates")
struct StreamTokenUpdatesTests {
    @Test("tokenUpdates yields a new token at each refresh time, 60 s before exp")
    func proactiveUpdates() async throws {
        let clock = TestClock()
        let server = FakeAuthServer(clock: clock)
        let session = AuthSession(
            baseURL: try #require(URL(string: "https://api.example.test/")),
            transport: server,
            refreshLeeway: 0,
            now: clock.closure
        )
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        server.configure { $0.accessExpiresIn = 100_000 }
        let stream = StreamTokenProvider(session: session, now: clock.closure)
        let waits = Waits()
        let updates = stream.tokenUpdates { seconds in
            await waits.record(seconds)
            clock.advance(by: seconds)
        }
        var received: [ExpiringToken] = []
        for try await token in updates {
            received.append(token)
            if received.count == 3 { break }
        }
        #expect(Set(received.map(\.token)).count == 3)
        #expect(Array(await waits.all.prefix(2)) == [840, 840])
        #expect(received[1].expiresAt == received[0].expiresAt.addingTimeInterval(840))
    }

    @Test("tokenUpdates ends with signedOut when the session is gone")
    func endsWhenSignedOut() async throws {
        let session = AuthSession(
            baseURL: try #require(URL(string: "https://api.example.test/")),
            transport: FakeAuthServer()
        )
        let updates = StreamTokenProvider(session: session).tokenUpdates { _ in }
        await #expect(throws: TokenClientError.signedOut) {
            for try await _ in updates {}
        }
    }
}

/// Records the waits a provider asked for.
actor Waits {
    private(set) var all: [TimeInterval] = []

    func record(_ seconds: TimeInterval) { all.append(seconds) }
}
