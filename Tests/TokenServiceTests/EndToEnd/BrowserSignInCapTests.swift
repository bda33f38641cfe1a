import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// Browser sign-ins under way are capped (issue 30, item 8): per client address
/// (`identity.maxPendingFlowsPerAddress` starts within `identity.flowLifetimeSeconds`: 429) and in all
/// (`identity.maxPendingFlows`: 503 with `Retry-After`), so that flows started and never finished cannot fill the
/// database. Runs on PostgreSQL too (`TOKENVEND_TEST_BACKEND=postgres`).
@Suite(.tags(.integration), .timeLimit(.minutes(2)))
struct BrowserSignInCapTests {
    typealias Flow = BrowserSignInTests

    /// `GET /auth/oauth/fake` with a fresh challenge, not followed.
    static func start(_ server: TestServer) async throws -> TestResponse {
        let (_, challenge) = try Flow.pkce()
        return try await Flow.call(
            server, "GET",
            "/auth/oauth/fake?"
                + Flow.query([
                    ("redirect_uri", Flow.app), ("code_challenge", challenge), ("code_challenge_method", "S256"),
                    ("state", "s"),
                ]))
    }

    @Test("past identity.maxPendingFlows flows under way a start is 503 with Retry-After; a finished flow frees one")
    func totalCap() async throws {
        try await Flow.withBrowserSignIn(extra: ["TOKENVEND_IDENTITY_MAX_PENDING_FLOWS": "2"]) { server, _ in
            var statuses: [Int] = []
            for _ in 0..<2 { statuses.append(try await Self.start(server).status) }
            #expect(statuses == [302, 302])
            let refused = try await Self.start(server)
            #expect(refused.status == 503)
            #expect(refused.errorCode == "unavailable")
            #expect(refused.headers["retry-after"] == "30")
            #expect(refused.headers["location"] == nil)
            #expect(server.server.metrics.oauthSignIns.value(.startTooManyFlows) == 1)
            #expect(server.logs().contains("identity.maxPendingFlows"))
        }
    }

    @Test("a flow that reached its callback no longer counts against identity.maxPendingFlows")
    func finishedFlowFreesPlace() async throws {
        try await Flow.withBrowserSignIn(extra: ["TOKENVEND_IDENTITY_MAX_PENDING_FLOWS": "1"]) { server, _ in
            let (code, verifier) = try await Flow.signIn(server)
            #expect(try await Flow.exchange(server, code: code, verifier: verifier).status == 200)
            let (second, _) = try await Flow.signIn(server)
            #expect(!second.isEmpty)
            let third = try await Self.start(server)
            #expect(third.status == 302)
            #expect(try await Self.start(server).status == 503)
        }
    }

    @Test("past identity.maxPendingFlowsPerAddress starts from one address a start is 429 with Retry-After")
    func perAddressCap() async throws {
        try await Flow.withBrowserSignIn(extra: ["TOKENVEND_IDENTITY_MAX_PENDING_FLOWS_PER_ADDRESS": "2"]) {
            server, _ in
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await Self.start(server).status) }
            #expect(statuses == [302, 302, 429])
            let limited = try await Self.start(server)
            #expect(limited.status == 429)
            let retryAfter = try #require(limited.headers["retry-after"].flatMap { Int($0) })
            #expect((1...300).contains(retryAfter))
            #expect(limited.headers["location"] == nil)
            #expect(server.server.metrics.oauthSignIns.value(.startRateLimited) == 2)
        }
    }

    @Test("a refused start (bad PKCE, unknown redirect URI) counts against neither cap")
    func refusedStartsDoNotCount() async throws {
        let caps = [
            "TOKENVEND_IDENTITY_MAX_PENDING_FLOWS_PER_ADDRESS": "1", "TOKENVEND_IDENTITY_MAX_PENDING_FLOWS": "1",
        ]
        try await Flow.withBrowserSignIn(extra: caps) { server, _ in
            let bad = try await Flow.call(
                server, "GET",
                "/auth/oauth/fake?" + Flow.query([("redirect_uri", "https://evil.example/cb"), ("state", "s")]))
            #expect(bad.status == 400)
            #expect(try await Self.start(server).status == 302)
        }
    }
}
