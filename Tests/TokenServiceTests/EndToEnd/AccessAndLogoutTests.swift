import Foundation
import Testing
import TokenService
import TokenServiceTesting

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct AccessAndLogoutTests {
    @Test("an expired access token gets 401 invalid_token with the RFC 6750 challenge, never 403")
    func expiredTokenIs401() async throws {
        let clock = TestClock()
        try await withTestServer(now: clock.now) { server in
            let login = try await server.signUp()
            clock.advance(by: 900 + 31)
            let me = try await server.request("GET", "/auth/me", headers: login.bearer)
            #expect(me.status == 401)
            #expect(me.errorCode == "invalid_token")
            #expect(me.headers["www-authenticate"] == #"Bearer realm="tokenvend", error="invalid_token""#)
            let stream = try await server.request("POST", "/stream-token", headers: login.bearer)
            #expect(stream.status == 401)
        }
    }

    @Test("within the leeway an access token just past exp still works")
    func leeway() async throws {
        let clock = TestClock()
        try await withTestServer(now: clock.now) { server in
            let login = try await server.signUp()
            clock.advance(by: 900 + 20)
            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 200)
        }
    }

    @Test("no credentials: 401 without an error attribute; a token in the query string is ignored")
    func missingCredentials() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            let bare = try await server.request("GET", "/auth/me")
            #expect(bare.status == 401)
            #expect(bare.headers["www-authenticate"] == #"Bearer realm="tokenvend""#)
            let query = try await server.request("GET", "/auth/me?access_token=\(login.accessToken)")
            #expect(query.status == 401)
            let basic = try await server.request("GET", "/auth/me", headers: ["Authorization": "Basic YTpi"])
            #expect(basic.status == 401)
            let lower = try await server.request(
                "GET", "/auth/me", headers: ["Authorization": "bEaReR \(login.accessToken)"])
            #expect(lower.status == 200)
        }
    }

    @Test("forged, tampered and alg-none tokens are refused")
    func hostileTokens() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            let parts = login.accessToken.split(separator: ".").map(String.init)
            let noneHeader = Data(#"{"alg":"none","typ":"at+jwt","kid":"x"}"#.utf8).base64URL
            let strippedSignature = parts[0] + "." + parts[1] + "."
            let noneToken = noneHeader + "." + parts[1] + "."
            let otherPayload = Data(#"{"sub":"someone-else"}"#.utf8).base64URL
            let swapped = parts[0] + "." + otherPayload + "." + parts[2]
            for token in [
                strippedSignature, noneToken, swapped, login.accessToken + "x", "a.b.c",
                String(repeating: "a", count: 12000),
            ] {
                let response = try await server.request(
                    "GET", "/auth/me", headers: ["Authorization": "Bearer \(token)"])
                #expect(response.status == 401)
                #expect(response.errorCode == "invalid_token")
            }
        }
    }

    @Test("logout scopes: local ends this session, others keeps it, global ends all; local is idempotent")
    func logoutScopes() async throws {
        try await withTestServer { server in
            let first = try await server.signUp()
            let second = try await server.logIn(email: first.email)
            let third = try await server.logIn(email: first.email)

            let others = try await server.request("POST", "/auth/logout?scope=others", headers: third.bearer)
            #expect(others.status == 204)
            #expect(try await server.request("GET", "/auth/me", headers: third.bearer).status == 200)
            #expect(try await server.request("GET", "/auth/me", headers: first.bearer).status == 401)
            #expect(try await server.request("GET", "/auth/me", headers: second.bearer).status == 401)

            let fourth = try await server.logIn(email: first.email)
            let global = try await server.request("POST", "/auth/logout?scope=global", headers: fourth.bearer)
            #expect(global.status == 204)
            #expect(try await server.request("GET", "/auth/me", headers: third.bearer).status == 401)
            // Ending other sessions needs a live one: the repeat is refused (and revokes nothing).
            let again = try await server.request("POST", "/auth/logout?scope=global", headers: fourth.bearer)
            #expect(again.status == 401)
            #expect(try await server.request("POST", "/auth/logout", headers: fourth.bearer).status == 204)

            let fifth = try await server.logIn(email: first.email)
            let byRefresh = try await server.request(
                "POST", "/auth/logout", json: #"{"refreshToken":"\#(fifth.refreshToken)"}"#)
            #expect(byRefresh.status == 204)
            #expect(try await server.request("GET", "/auth/me", headers: fifth.bearer).status == 401)
            let bad = try await server.request("POST", "/auth/logout?scope=everything", headers: fifth.bearer)
            #expect(bad.status == 400)
        }
    }

    @Test("a logout body with an ill-typed refreshToken is 400 even beside a valid access token; nothing is revoked")
    func logoutBodyIsChecked() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            for body in [#"{"refreshToken":42}"#, #"{"refreshToken":{}}"#, #"{"other":"x"}"#, "[]"] {
                let refused = try await server.request(
                    "POST", "/auth/logout?scope=global", headers: login.bearer, json: body)
                #expect(refused.status == 400, "\(body)")
                #expect(refused.errorCode == "invalid_request", "\(body)")
            }
            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 200)
            let nullToken = try await server.request(
                "POST", "/auth/logout", headers: login.bearer, json: #"{"refreshToken":null}"#)
            #expect(nullToken.status == 204)
            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 401)
        }
    }

    @Test("sessions are listed with the current one marked, and only the caller's can be revoked")
    func sessionsListAndRevoke() async throws {
        try await withTestServer { server in
            let mine = try await server.signUp()
            let other = try await server.logIn(email: mine.email)
            let stranger = try await server.signUp()
            let list = try await server.request(
                "GET", "/auth/sessions", headers: mine.bearer.merging(["User-Agent": "TestApp/1.0"]) { $1 })
            #expect(list.status == 200)
            let sessions = try #require(try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])
            #expect(sessions.count == 2)
            #expect(sessions.filter { $0["current"] as? Bool == true }.count == 1)
            let otherID = try #require(sessions.first { $0["current"] as? Bool == false }?["id"] as? String)

            let foreign = try await server.request("DELETE", "/auth/sessions/\(otherID)", headers: stranger.bearer)
            #expect(foreign.status == 404)
            let revoked = try await server.request("DELETE", "/auth/sessions/\(otherID)", headers: mine.bearer)
            #expect(revoked.status == 204)
            #expect(try await server.request("GET", "/auth/me", headers: other.bearer).status == 401)
            #expect(try await server.request("DELETE", "/auth/sessions/\(otherID)", headers: mine.bearer).status == 404)
        }
    }

    @Test("disabling a user ends every session at once, even from another database handle")
    func disablingRevokes() async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            // Twice, so the server answers the liveness check from memory before the other handle writes.
            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 200)
            #expect(try await server.request("GET", "/auth/me", headers: login.bearer).status == 200)
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            defer { accounts.close() }
            #expect(try await accounts.disable(email: login.email) == 1)
            let me = try await TestBackend.afterOtherStoreChange {
                try await server.request("GET", "/auth/me", headers: login.bearer).status
            } until: {
                $0 == 401
            }
            #expect(me == 401)
            let refresh = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(login.refreshToken)"}"#)
            #expect(refresh.status == 401)
            let again = try await server.request(
                "POST", "/auth/login", json: #"{"email":"\#(login.email)","password":"\#(TestServer.password)"}"#)
            #expect(again.status == 401)
        }
    }
}

extension Data {
    /// Unpadded base64url, for building hostile tokens by hand.
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
