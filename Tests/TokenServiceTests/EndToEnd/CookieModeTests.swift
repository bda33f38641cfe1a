import Foundation
import Testing
import TokenService
import TokenServiceTesting

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct CookieModeTests {
    /// Logs `user` in with `X-Auth-Strategy: cookie`.
    private func cookieLogin(_ server: TestServer, _ user: Login) async throws -> TestResponse {
        try await server.request(
            "POST", "/auth/login", headers: ["X-Auth-Strategy": "cookie"],
            json: #"{"email":"\#(user.email)","password":"\#(TestServer.password)"}"#)
    }

    /// The `name=value` pairs of the `Set-Cookie` fields (URLSession folds them into one comma-joined field).
    private func cookies(_ response: TestResponse) -> [String: String] {
        var jar: [String: String] = [:]
        let field = response.headers["set-cookie"] ?? ""
        for name in ["access_token", "refresh_token", "csrf_token"] {
            guard let range = field.range(of: "\(name)=") else { continue }
            let value = field[range.upperBound...].prefix { $0 != ";" }
            jar[name] = String(value)
        }
        return jar
    }

    @Test(
        "cookie login sets HttpOnly Secure SameSite=Strict cookies and keeps tokens out of the body",
        arguments: [TestServer.Mode.socket, .router])
    func cookieLogin(mode: TestServer.Mode) async throws {
        try await withTestServer(mode: mode) { server in
            let user = try await server.signUp()
            let response = try await cookieLogin(server, user)
            #expect(response.status == 200)
            let body = try response.object()
            #expect(body["accessToken"] == nil && body["refreshToken"] == nil)
            #expect(body["expiresIn"] as? Int == 900)
            let field = try #require(response.headers["set-cookie"])
            #expect(field.contains("access_token=") && field.contains("Path=/;"))
            #expect(field.contains("refresh_token=") && field.contains("Path=/auth;"))
            #expect(field.contains("HttpOnly; Secure; SameSite=Strict"))
            #expect(cookies(response)["csrf_token"]?.isEmpty == false)
        }
    }

    @Test("a cookie-authenticated unsafe request needs the CSRF header; safe ones do not")
    func csrfCheck() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp()
            let login = try await cookieLogin(server, user)
            let jar = cookies(login)
            let access = try #require(jar["access_token"])
            let csrf = try #require(jar["csrf_token"])
            let cookie = "access_token=\(access); csrf_token=\(csrf)"
            #expect(try await server.request("GET", "/auth/me", headers: ["Cookie": cookie]).status == 200)
            let forged = try await server.request("POST", "/stream-token", headers: ["Cookie": cookie])
            #expect(forged.status == 403)
            let wrong = try await server.request(
                "POST", "/stream-token", headers: ["Cookie": cookie, "X-CSRF-Token": "nope"])
            #expect(wrong.status == 403)
            let allowed = try await server.request(
                "POST", "/stream-token", headers: ["Cookie": cookie, "X-CSRF-Token": csrf])
            #expect(allowed.status == 200)
        }
    }

    @Test("a refresh that comes with only the cookie is answered with cookies, not tokens in the body")
    func cookieRefreshDefaultsToCookies() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp()
            let login = try await cookieLogin(server, user)
            let refresh = try #require(cookies(login)["refresh_token"])
            let csrf = try #require(cookies(login)["csrf_token"])
            let refreshed = try await server.request(
                "POST", "/auth/refresh",
                headers: ["Cookie": "refresh_token=\(refresh); csrf_token=\(csrf)", "X-CSRF-Token": csrf])
            #expect(refreshed.status == 200)
            #expect(try refreshed.object()["refreshToken"] == nil)
            #expect(cookies(refreshed)["refresh_token"]?.isEmpty == false)
        }
    }

    @Test("refresh and logout work from the cookies alone")
    func cookieRefreshAndLogout() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp()
            let login = try await cookieLogin(server, user)
            let jar = cookies(login)
            let refresh = try #require(jar["refresh_token"])
            let loginCSRF = try #require(jar["csrf_token"])
            let refreshed = try await server.request(
                "POST", "/auth/refresh",
                headers: [
                    "X-Auth-Strategy": "cookie", "Cookie": "refresh_token=\(refresh); csrf_token=\(loginCSRF)",
                    "X-CSRF-Token": loginCSRF,
                ])
            #expect(refreshed.status == 200)
            let next = cookies(refreshed)
            let access = try #require(next["access_token"])
            let csrf = try #require(next["csrf_token"])
            let logout = try await server.request(
                "POST", "/auth/logout",
                headers: ["Cookie": "access_token=\(access); csrf_token=\(csrf)", "X-CSRF-Token": csrf])
            #expect(logout.status == 204)
            #expect(logout.headers["set-cookie"]?.contains("Max-Age=0") == true)
            #expect(
                try await server.request("GET", "/auth/me", headers: ["Cookie": "access_token=\(access)"]).status == 401
            )
        }
    }
}
