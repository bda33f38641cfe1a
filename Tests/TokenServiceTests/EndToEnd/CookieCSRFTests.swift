import Cryptography
import Foundation
import JWT
import Testing
import TokenService
import TokenServiceTesting

/// The CSRF token of cookie mode, and the check on refresh and logout carried by cookies.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct CookieCSRFTests {
    private struct Jar {
        var access: String
        var refresh: String
        var csrf: String
    }

    /// Logs a new user in with `X-Auth-Strategy: cookie` and returns the three cookies.
    private func cookieSession(_ server: TestServer) async throws -> Jar {
        let user = try await server.signUp()
        let response = try await server.request(
            "POST", "/auth/login", headers: ["X-Auth-Strategy": "cookie"],
            json: #"{"email":"\#(user.email)","password":"\#(TestServer.password)"}"#)
        #expect(response.status == 200)
        return try jar(response)
    }

    private func jar(_ response: TestResponse) throws -> Jar {
        let field = response.headers["set-cookie"] ?? ""
        func value(_ name: String) throws -> String {
            let range = try #require(field.range(of: "\(name)="))
            return String(field[range.upperBound...].prefix { $0 != ";" && $0 != "," })
        }
        return Jar(
            access: try value("__Host-access_token"), refresh: try value("__Secure-refresh_token"),
            csrf: try value("__Host-csrf_token"))
    }

    @Test("the __Host-csrf_token cookie is 32 random bytes in base64url (43 characters), new at every login")
    func csrfTokenShape() async throws {
        try await withTestServer(mode: .router) { server in
            let first = try await cookieSession(server)
            let second = try await cookieSession(server)
            for token in [first.csrf, second.csrf] {
                #expect(token.count == 43)
                #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
                #expect(Base64URL.decode(token)?.count == 32)
            }
            #expect(first.csrf != second.csrf)
        }
    }

    @Test("a refresh carried by the cookie needs X-CSRF-Token equal to the __Host-csrf_token cookie, else 403")
    func refreshNeedsCSRF() async throws {
        try await withTestServer(mode: .router) { server in
            let jar = try await cookieSession(server)
            let cookie = "__Secure-refresh_token=\(jar.refresh); __Host-csrf_token=\(jar.csrf)"
            let missing = try await server.request("POST", "/auth/refresh", headers: ["Cookie": cookie])
            #expect(missing.status == 403)
            #expect(missing.errorCode == "insufficient_scope")
            // One character changed, whatever the token starts with (a fixed "x" equals it 1 time in 64).
            let altered = (jar.csrf.first == "x" ? "y" : "x") + jar.csrf.dropFirst()
            let wrong = try await server.request(
                "POST", "/auth/refresh", headers: ["Cookie": cookie, "X-CSRF-Token": altered])
            #expect(wrong.status == 403)
            let noCookie = try await server.request(
                "POST", "/auth/refresh",
                headers: ["Cookie": "__Secure-refresh_token=\(jar.refresh)", "X-CSRF-Token": jar.csrf])
            #expect(noCookie.status == 403)
            // The refused attempts spent nothing: the same refresh token still rotates.
            let allowed = try await server.request(
                "POST", "/auth/refresh", headers: ["Cookie": cookie, "X-CSRF-Token": jar.csrf])
            #expect(allowed.status == 200)
        }
    }

    @Test("a logout carried by the refresh cookie needs X-CSRF-Token, else 403 and the session lives on")
    func logoutNeedsCSRF() async throws {
        try await withTestServer(mode: .router) { server in
            let jar = try await cookieSession(server)
            let cookie = "__Secure-refresh_token=\(jar.refresh); __Host-csrf_token=\(jar.csrf)"
            for scope in ["", "?scope=global"] {
                let forged = try await server.request("POST", "/auth/logout\(scope)", headers: ["Cookie": cookie])
                #expect(forged.status == 403)
            }
            #expect(
                try await server.request("GET", "/auth/me", headers: ["Cookie": "__Host-access_token=\(jar.access)"])
                    .status
                    == 200)
            let logout = try await server.request(
                "POST", "/auth/logout", headers: ["Cookie": cookie, "X-CSRF-Token": jar.csrf])
            #expect(logout.status == 204)
            #expect(
                try await server.request("GET", "/auth/me", headers: ["Cookie": "__Host-access_token=\(jar.access)"])
                    .status
                    == 401)
        }
    }
}
