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
        for name in ["__Host-access_token", "__Secure-refresh_token", "__Host-csrf_token"] {
            guard let range = field.range(of: "\(name)=") else { continue }
            let value = field[range.upperBound...].prefix { $0 != ";" }
            jar[name] = String(value)
        }
        return jar
    }

    /// Each `Set-Cookie` field by cookie name: its value and its attributes as written (`Path=/`, `Secure`…).
    private func setCookies(_ response: TestResponse) -> [String: (value: String, attributes: [String])] {
        var fields: [String: (value: String, attributes: [String])] = [:]
        // Folded into one field with ", ": no value or attribute of ours contains that (no Expires).
        for field in (response.headers["set-cookie"] ?? "").components(separatedBy: ", ") {
            let parts = field.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
            fields[String(pair[..<equals])] = (String(pair[pair.index(after: equals)...]), Array(parts.dropFirst()))
        }
        return fields
    }

    @Test(
        "access and CSRF cookies are __Host- (Secure, Path=/, no Domain), the refresh cookie __Secure- on Path=/auth",
        arguments: [TestServer.Mode.socket, .router])
    func prefixedCookies(mode: TestServer.Mode) async throws {
        try await withTestServer(mode: mode) { server in
            let user = try await server.signUp()
            let login = try await cookieLogin(server, user)
            let fields = setCookies(login)
            #expect(Set(fields.keys) == ["__Host-access_token", "__Secure-refresh_token", "__Host-csrf_token"])
            for name in ["__Host-access_token", "__Host-csrf_token"] {
                let attributes = try #require(fields[name]).attributes
                // What a browser requires before it stores a __Host- cookie (RFC 6265bis §4.1.3.2).
                #expect(attributes.contains("Secure") && attributes.contains("Path=/"))
                #expect(!attributes.contains { $0.lowercased().hasPrefix("domain") })
            }
            let refresh = try #require(fields["__Secure-refresh_token"]).attributes
            #expect(refresh.contains("Secure") && refresh.contains("Path=/auth") && refresh.contains("HttpOnly"))
            #expect(try #require(fields["__Host-access_token"]).attributes.contains("HttpOnly"))
            #expect(try #require(fields["__Host-csrf_token"]).attributes.contains("HttpOnly") == false)
            // Logout clears the same names on the same paths: a browser deletes only a cookie that matches both.
            let access = try #require(fields["__Host-access_token"]).value
            let csrf = try #require(fields["__Host-csrf_token"]).value
            let logout = try await server.request(
                "POST", "/auth/logout",
                headers: ["Cookie": "__Host-access_token=\(access); __Host-csrf_token=\(csrf)", "X-CSRF-Token": csrf])
            #expect(logout.status == 204)
            let cleared = setCookies(logout)
            #expect(Set(cleared.keys) == Set(fields.keys))
            for (name, field) in cleared {
                #expect(field.value.isEmpty && field.attributes.contains("Max-Age=0"))
                let path = try #require(fields[name]).attributes.first { $0.hasPrefix("Path=") }
                #expect(field.attributes.first { $0.hasPrefix("Path=") } == path)
            }
        }
    }

    @Test("cookies without the prefix, which a sibling subdomain could set (cookie tossing), are not read")
    func unprefixedCookiesIgnored() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp()
            let jar = cookies(try await cookieLogin(server, user))
            let access = try #require(jar["__Host-access_token"])
            let refresh = try #require(jar["__Secure-refresh_token"])
            let csrf = try #require(jar["__Host-csrf_token"])
            let me = try await server.request("GET", "/auth/me", headers: ["Cookie": "access_token=\(access)"])
            #expect(me.status == 401)
            // A tossed csrf_token with a matching header does not stand in for the __Host- one.
            let tossedCSRF = try await server.request(
                "POST", "/stream-token",
                headers: ["Cookie": "__Host-access_token=\(access); csrf_token=tossed", "X-CSRF-Token": "tossed"])
            #expect(tossedCSRF.status == 403)
            let unprefixedRefresh = try await server.request(
                "POST", "/auth/refresh",
                headers: ["Cookie": "refresh_token=\(refresh); __Host-csrf_token=\(csrf)", "X-CSRF-Token": csrf])
            #expect(unprefixedRefresh.status == 401)
            // The prefixed ones still work.
            #expect(
                try await server.request("GET", "/auth/me", headers: ["Cookie": "__Host-access_token=\(access)"])
                    .status == 200)
        }
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
            #expect(field.contains("__Host-access_token=") && field.contains("Path=/;"))
            #expect(field.contains("__Secure-refresh_token=") && field.contains("Path=/auth;"))
            #expect(field.contains("HttpOnly; Secure; SameSite=Strict"))
            #expect(cookies(response)["__Host-csrf_token"]?.isEmpty == false)
        }
    }

    @Test("a cookie-authenticated unsafe request needs the CSRF header; safe ones do not")
    func csrfCheck() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp()
            let login = try await cookieLogin(server, user)
            let jar = cookies(login)
            let access = try #require(jar["__Host-access_token"])
            let csrf = try #require(jar["__Host-csrf_token"])
            let cookie = "__Host-access_token=\(access); __Host-csrf_token=\(csrf)"
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
            let refresh = try #require(cookies(login)["__Secure-refresh_token"])
            let csrf = try #require(cookies(login)["__Host-csrf_token"])
            let refreshed = try await server.request(
                "POST", "/auth/refresh",
                headers: [
                    "Cookie": "__Secure-refresh_token=\(refresh); __Host-csrf_token=\(csrf)", "X-CSRF-Token": csrf,
                ])
            #expect(refreshed.status == 200)
            #expect(try refreshed.object()["refreshToken"] == nil)
            #expect(cookies(refreshed)["__Secure-refresh_token"]?.isEmpty == false)
        }
    }

    @Test("refresh and logout work from the cookies alone")
    func cookieRefreshAndLogout() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp()
            let login = try await cookieLogin(server, user)
            let jar = cookies(login)
            let refresh = try #require(jar["__Secure-refresh_token"])
            let loginCSRF = try #require(jar["__Host-csrf_token"])
            let refreshed = try await server.request(
                "POST", "/auth/refresh",
                headers: [
                    "X-Auth-Strategy": "cookie",
                    "Cookie": "__Secure-refresh_token=\(refresh); __Host-csrf_token=\(loginCSRF)",
                    "X-CSRF-Token": loginCSRF,
                ])
            #expect(refreshed.status == 200)
            let next = cookies(refreshed)
            let access = try #require(next["__Host-access_token"])
            let csrf = try #require(next["__Host-csrf_token"])
            let logout = try await server.request(
                "POST", "/auth/logout",
                headers: ["Cookie": "__Host-access_token=\(access); __Host-csrf_token=\(csrf)", "X-CSRF-Token": csrf])
            #expect(logout.status == 204)
            #expect(logout.headers["set-cookie"]?.contains("Max-Age=0") == true)
            #expect(
                try await server.request("GET", "/auth/me", headers: ["Cookie": "__Host-access_token=\(access)"]).status
                    == 401
            )
        }
    }
}
