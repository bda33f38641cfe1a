import Foundation
import Synchronization
import Testing
import TokenService
import TokenServiceTesting

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct RefreshRotationTests {
    private func refresh(_ server: TestServer, _ token: String) async throws -> TestResponse {
        try await server.request("POST", "/auth/refresh", json: #"{"refreshToken":"\#(token)"}"#)
    }

    @Test("the just-rotated parent presented again within the grace window returns the same live token")
    func graceConvergence() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            let first = try await refresh(server, login.refreshToken)
            let live = try #require(try first.object()["refreshToken"] as? String)
            let again = try await refresh(server, login.refreshToken)
            #expect(again.status == 200)
            #expect(try again.object()["refreshToken"] as? String == live)
            let next = try await refresh(server, live)
            #expect(next.status == 200)
        }
    }

    @Test("an older spent token revokes the whole session: its refresh and access tokens stop working")
    func reuseRevokesSession() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            let second = try #require(try await refresh(server, login.refreshToken).object()["refreshToken"] as? String)
            let thirdAnswer = try await refresh(server, second).object()
            let third = try #require(thirdAnswer["refreshToken"] as? String)
            let access = try #require(thirdAnswer["accessToken"] as? String)
            // The grandparent is reuse, not convergence.
            let replay = try await refresh(server, login.refreshToken)
            #expect(replay.status == 401)
            #expect(replay.errorCode == "invalid_grant")
            #expect(try await refresh(server, third).status == 401)
            let me = try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"])
            #expect(me.status == 401)
            #expect(server.server.metrics.refreshReuseDetected.value() == 1)
        }
    }

    @Test("with grace 0 the parent is reuse at once")
    func noGrace() async throws {
        try await withTestServer(environment: ["TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "0"]) { server in
            let login = try await server.signUp()
            let live = try #require(try await refresh(server, login.refreshToken).object()["refreshToken"] as? String)
            #expect(try await refresh(server, login.refreshToken).status == 401)
            #expect(try await refresh(server, live).status == 401)
        }
    }

    @Test("unknown, malformed and forged refresh tokens share one 401 body and revoke nothing")
    func invalidTokensShareOneBody() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            var forged = Array(login.refreshToken)
            forged[forged.count - 3] = forged[forged.count - 3] == "A" ? "B" : "A"
            let candidates = [
                "", "garbage", String(forged), String(repeating: "A", count: 76), login.refreshToken + "x",
            ]
            var bodies = Set<String>()
            for candidate in candidates {
                let response = try await refresh(server, candidate)
                #expect(response.status == 401)
                #expect(response.headers["www-authenticate"] == #"Bearer realm="tokenvend""#)
                bodies.insert(response.text)
            }
            #expect(bodies.count == 1)
            #expect(try await refresh(server, login.refreshToken).status == 200)
        }
    }

    @Test("no refresh token at all (no body, no cookie) is 401 invalid_grant; a body without the member is 400")
    func missingRefreshToken() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            let absent = try await server.request("POST", "/auth/refresh")
            #expect(absent.status == 401)
            #expect(absent.errorCode == "invalid_grant")
            #expect(absent.headers["www-authenticate"] == #"Bearer realm="tokenvend""#)
            #expect(absent.text == (try await refresh(server, "garbage")).text)
            let noMember = try await server.request("POST", "/auth/refresh", json: "{}")
            #expect(noMember.status == 400)
            #expect(noMember.errorCode == "invalid_request")
            #expect(try await refresh(server, login.refreshToken).status == 200)
        }
    }

    @Test("50 concurrent refreshes of one token converge on one live token when grace is on")
    func concurrentRefreshesConverge() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<50 { group.addTask { try await refresh(server, login.refreshToken) } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.status == 200 })
            let tokens = Set(answers.compactMap { try? $0.object()["refreshToken"] as? String })
            #expect(tokens.count == 1)
            let live = try #require(tokens.first)
            #expect(try await refresh(server, live).status == 200)
        }
    }

    @Test("50 concurrent refreshes with grace 0 leave exactly one winner, then a revoked session")
    func concurrentRefreshesWithoutGrace() async throws {
        try await withTestServer(environment: ["TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "0"]) { server in
            let login = try await server.signUp()
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<50 { group.addTask { try await refresh(server, login.refreshToken) } }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            let winners = answers.filter { $0.status == 200 }
            #expect(winners.count == 1)
            #expect(answers.filter { $0.status == 401 }.count == 49)
            let live = try #require(try winners.first?.object()["refreshToken"] as? String)
            #expect(try await refresh(server, live).status == 401)
        }
    }

    @Test("a session past its absolute cap cannot be refreshed")
    func absoluteCap() async throws {
        let clock = TestClock()
        try await withTestServer(environment: ["TOKENVEND_SESSION_MAX_LIFETIME_SECONDS": "3600"], now: clock.now) {
            server in
            let login = try await server.signUp()
            clock.advance(by: 1800)
            let live = try #require(try await refresh(server, login.refreshToken).object()["refreshToken"] as? String)
            clock.advance(by: 1801)
            #expect(try await refresh(server, live).status == 401)
        }
    }
}

/// A settable wall clock for the server's token times.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    func current() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    var now: @Sendable () -> Date { { self.current() } }

    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
