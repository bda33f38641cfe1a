import Foundation
import Logging
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct SessionLimitsTests {
    @Test("a login beyond session.maxPerUser revokes the least recently used session at once")
    func capPerUser() async throws {
        try await withTestServer(environment: ["TOKENVEND_SESSION_MAX_PER_USER": "2"]) { server in
            let first = try await server.signUp(email: "cap@example.com")
            let second = try await server.logIn(email: "cap@example.com")
            #expect(try await server.request("GET", "/auth/me", headers: first.bearer).status == 200)
            let third = try await server.logIn(email: "cap@example.com")
            #expect(try await server.request("GET", "/auth/me", headers: first.bearer).status == 401)
            let refresh = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(first.refreshToken)"}"#)
            #expect(refresh.status == 401 && refresh.errorCode == "invalid_grant")
            let list = try await server.request("GET", "/auth/sessions", headers: third.bearer)
            let ids = try #require(try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])
            #expect(ids.count == 2)
            #expect(try await server.request("GET", "/auth/me", headers: second.bearer).status == 200)
            #expect(server.server.metrics.sessionsRevoked.value(.sessionCap) == 1)
        }
    }

    @Test("GET /auth/sessions pages with limit and an opaque cursor in Link rel=next")
    func pagination() async throws {
        try await withTestServer { server in
            var logins = [try await server.signUp(email: "pages@example.com")]
            for _ in 0..<4 { logins.append(try await server.logIn(email: "pages@example.com")) }
            let caller = try #require(logins.last)
            var seen: [String] = []
            var path = "/auth/sessions?limit=2"
            var pages = 0
            while true {
                let response = try await server.request("GET", path, headers: caller.bearer)
                #expect(response.status == 200)
                let page = try #require(try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]])
                #expect(page.count <= 2)
                seen += page.compactMap { $0["id"] as? String }
                pages += 1
                guard let link = response.headers["link"] else { break }
                #expect(link.hasPrefix("</auth/sessions?limit=2&cursor=") && link.hasSuffix(#">; rel="next""#))
                path = String(link.dropFirst().prefix { $0 != ">" })
                if pages > 5 { break }
            }
            #expect(pages == 3)
            #expect(seen.count == 5 && Set(seen).count == 5)
            let all = try await server.request("GET", "/auth/sessions", headers: caller.bearer)
            #expect(all.headers["link"] == nil)
            let everything = try #require(try JSONSerialization.jsonObject(with: all.body) as? [[String: Any]])
            #expect(everything.compactMap { $0["id"] as? String } == seen)
        }
    }

    @Test(
        "any 32-character base64url cursor names a position, as the spec's pattern says",
        arguments: [
            String(repeating: "A", count: 32), String(repeating: "_", count: 32), "0123456789abcdefABCDEF-_01234567",
        ])
    func wellFormedCursor(cursor: String) async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            let response = try await server.request("GET", "/auth/sessions?cursor=\(cursor)", headers: login.bearer)
            #expect(response.status == 200)
        }
    }

    @Test(
        "an invalid limit or cursor is 400 invalid_request",
        arguments: [
            "limit=0", "limit=101", "limit=abc", "limit=", "limit=-1", "cursor=", "cursor=%%%", "cursor=bm9wZQ",
            "cursor=" + String(repeating: "A", count: 31), "cursor=" + String(repeating: "A", count: 33),
            "cursor=" + String(repeating: "A", count: 31) + ".",
        ])
    func invalidQuery(query: String) async throws {
        try await withTestServer { server in
            let login = try await server.signUp()
            let response = try await server.request("GET", "/auth/sessions?\(query)", headers: login.bearer)
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_request")
        }
    }

    @Test("the background purge deletes ended sessions in batches and keeps live ones")
    func purger() async throws {
        try await withTestServer { server in
            var logins: [Login] = []
            for _ in 0..<5 { logins.append(try await server.signUp()) }
            for login in logins.prefix(4) {
                #expect(try await server.request("POST", "/auth/logout", headers: login.bearer).status == 204)
            }
            let sessions = server.server.backend.sessions
            var configuration = SessionPurger.Configuration()
            configuration.retention = .zero
            configuration.batchSize = 3
            configuration.pause = .milliseconds(1)
            // A clock one second ahead, so the sessions revoked just now are past the zero retention.
            let purger = SessionPurger(
                sessions: sessions, configuration: configuration, logger: .init(label: "test"),
                now: { Date().addingTimeInterval(1) })
            #expect(await purger.purgeNow() == 4)
            #expect(await purger.purgeNow() == 0)
            await purger.stop()
            let live = try #require(logins.last)
            #expect(try await server.request("GET", "/auth/me", headers: live.bearer).status == 200)
            #expect(try await server.request("GET", "/auth/me", headers: logins[0].bearer).status == 401)
        }
    }
}
