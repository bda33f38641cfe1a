import Cryptography
import Foundation
import JWT
import Store
import StrictJSON
import Testing
import TokenServiceTesting

@testable import TokenService

/// `DELETE /auth/account` (issue 33) through the routes, on SQLite, and on PostgreSQL under
/// `TOKENVEND_TEST_BACKEND=postgres` (Makefile: POSTGRES_END_TO_END): the password or a recent sign-in
/// (`auth_time`, an injected clock), every credential ending at once, the audit record, the metric and the log.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct AccountDeletionTests {
    typealias Provider = FakeIdentityProvider

    /// `DELETE /auth/account` with `headers` and an optional JSON body.
    static func delete(_ server: TestServer, headers: [String: String], json: String? = nil) async throws
        -> TestResponse
    {
        try await server.request("DELETE", "/auth/account", headers: headers, json: json)
    }

    /// A passwordless account made by an ID-token sign-in: its access and refresh tokens.
    static func passwordless(_ server: TestServer) async throws -> (access: String, refresh: String, userID: String) {
        let subject = "001234.\(UUID().uuidString.lowercased())"
        let answer = try await server.signInWithIDToken { try Provider.token(subject: subject, nonce: $0) }
        #expect(answer.status == 200)
        let body = try answer.object()
        let user = try #require(body["user"] as? [String: Any])
        return (
            try #require(body["accessToken"] as? String), try #require(body["refreshToken"] as? String),
            try #require(user["id"] as? String)
        )
    }

    /// `GET /auth/me` and a refresh with `access` and `refresh`: the statuses and the refresh's error code.
    static func credentials(_ server: TestServer, access: String, refresh: String) async throws
        -> (me: Int, refresh: Int, refreshError: String?)
    {
        let me = try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"])
        let refreshed = try await server.request("POST", "/auth/refresh", json: #"{"refreshToken":"\#(refresh)"}"#)
        return (me.status, refreshed.status, refreshed.errorCode)
    }

    @Test("with the right password the account is deleted: 200, its tokens end at once, the email registers again")
    func deleteWithPassword() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp(email: "del-\(UUID().uuidString.prefix(6))@example.com")
            let other = try await server.logIn(email: user.email)
            let answer = try await Self.delete(
                server, headers: user.bearer, json: #"{"password":"\#(TestServer.password)"}"#)
            #expect(answer.status == 200)
            #expect(answer.text == #"{"deleted":true}"#)
            #expect(answer.headers["cache-control"] == "no-store")
            for login in [user, other] {
                let after = try await Self.credentials(server, access: login.accessToken, refresh: login.refreshToken)
                #expect(after.me == 401)
                #expect(after.refresh == 401 && after.refreshError == "invalid_grant")
            }
            let again = try await Self.delete(
                server, headers: user.bearer, json: #"{"password":"\#(TestServer.password)"}"#)
            #expect(again.status == 401 && again.errorCode == "invalid_token")
            let login = try await server.request(
                "POST", "/auth/login", json: #"{"email":"\#(user.email)","password":"\#(TestServer.password)"}"#)
            #expect(login.status == 401)

            let records = try await server.server.backend.users.deletedAccounts()
            #expect(records.map(\.userID) == [user.userID])
            #expect(records.map(\.method) == [.selfService])
            #expect(server.server.metrics.accountDeletions.value(.selfService) == 1)
            let line = try #require(server.logs().split(separator: "\n").first { $0.contains("account deleted") })
            #expect(line.contains(user.userID) && line.contains("self_service"))
            #expect(!line.contains(user.email))

            let registered = try await server.request(
                "POST", "/auth/register",
                json: #"{"email":"\#(user.email)","password":"\#(TestServer.password)"}"#)
            #expect(registered.status == 201)
            #expect(try await server.logIn(email: user.email).userID != user.userID)
        }
    }

    @Test("a wrong or missing password is 401 reauthentication_required and a wrong one counts as a failed login")
    func wrongPassword() async throws {
        try await withTestServer(
            mode: .router, environment: ["TOKENVEND_RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT": "2"]
        ) { server in
            let user = try await server.signUp()
            let missing = try await Self.delete(server, headers: user.bearer)
            #expect(missing.status == 401)
            #expect(missing.errorCode == "reauthentication_required")
            #expect(
                missing.headers["www-authenticate"]
                    == #"Bearer realm="tokenvend", error="insufficient_user_authentication", max_age=300"#)
            #expect(server.server.metrics.logins.value(.failed) == 0, "no password given: nothing was tried")
            for _ in 0..<2 {
                let wrong = try await Self.delete(server, headers: user.bearer, json: #"{"password":"not it at all"}"#)
                #expect(wrong.status == 401 && wrong.errorCode == "reauthentication_required")
            }
            #expect(server.server.metrics.logins.value(.failed) == 2)
            // The per-account failure limit is the login's: now even the right password waits, here and at login.
            let limited = try await Self.delete(
                server, headers: user.bearer, json: #"{"password":"\#(TestServer.password)"}"#)
            #expect(limited.status == 429)
            let login = try await server.request(
                "POST", "/auth/login", json: #"{"email":"\#(user.email)","password":"\#(TestServer.password)"}"#)
            #expect(login.status == 429)
            #expect(try await server.request("GET", "/auth/me", headers: user.bearer).status == 200)
            #expect(try await server.server.backend.users.deletedAccounts().isEmpty)
        }
    }

    @Test(
        "a passwordless account is deleted within account.reauthenticationSeconds of its sign-in, not after, refresh or not"
    )
    func passwordlessRecency() async throws {
        let clock = TestClock()
        try await withIdentityProvider(
            environment: ["TOKENVEND_ACCOUNT_REAUTHENTICATION_SECONDS": "120"], now: clock.now
        ) { server, _ in
            let stale = try await Self.passwordless(server)
            let signedInAt = try #require(try AccountFlowTests.claims(stale.access)["auth_time"] as? Int)
            clock.advance(by: 121)
            let refreshed = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(stale.refresh)"}"#)
            let access = try #require(try refreshed.object()["accessToken"] as? String)
            #expect(try AccountFlowTests.claims(access)["auth_time"] as? Int == signedInAt, "a refresh keeps it")
            for token in [stale.access, access] {
                let refused = try await Self.delete(server, headers: ["Authorization": "Bearer \(token)"], json: "{}")
                #expect(refused.status == 401 && refused.errorCode == "reauthentication_required")
                #expect(refused.headers["www-authenticate"]?.hasSuffix("max_age=120") == true)
            }
            // A password is no way in for an account without one.
            let withPassword = try await Self.delete(
                server, headers: ["Authorization": "Bearer \(access)"], json: #"{"password":"anything at all"}"#)
            #expect(withPassword.status == 401)

            // A new sign-in is recent: deleted with an empty body, and with `{}` for another account.
            let fresh = try await Self.passwordless(server)
            let deleted = try await Self.delete(server, headers: ["Authorization": "Bearer \(fresh.access)"])
            #expect(deleted.status == 200 && deleted.text == #"{"deleted":true}"#)
            let after = try await Self.credentials(server, access: fresh.access, refresh: fresh.refresh)
            #expect(after.me == 401 && after.refresh == 401 && after.refreshError == "invalid_grant")
            clock.advance(by: 119)
            let another = try await Self.passwordless(server)
            clock.advance(by: 120)
            let atTheLimit = try await Self.delete(
                server, headers: ["Authorization": "Bearer \(another.access)"], json: "{}")
            #expect(atTheLimit.status == 200)
            #expect(try await Self.credentials(server, access: stale.access, refresh: stale.refresh).me == 200)
            let records = try await server.server.backend.users.deletedAccounts()
            #expect(Set(records.map(\.userID)) == [fresh.userID, another.userID])
        }
    }

    @Test("a token from before auth_time existed counts as a stale sign-in")
    func tokenWithoutAuthTime() async throws {
        try await withIdentityProvider { server, _ in
            let account = try await Self.passwordless(server)
            let old = try Self.withoutAuthTime(server, account.access)
            #expect(
                try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(old)"]).status == 200)
            let refused = try await Self.delete(server, headers: ["Authorization": "Bearer \(old)"])
            #expect(refused.status == 401 && refused.errorCode == "reauthentication_required")
            #expect(try await Self.delete(server, headers: ["Authorization": "Bearer \(account.access)"]).status == 200)
        }
    }

    /// `token`'s claims without `auth_time`, signed with the server's key: a token as issued before issue 33.
    static func withoutAuthTime(_ server: TestServer, _ token: String) throws -> String {
        var claims = try JSONParserBridge.claims(of: token)
        #expect(claims.object["auth_time"] != nil)
        claims.object["auth_time"] = nil
        let key = try #require(server.configuration.accessToken.keys.first)
        let keys = try JWTKeySet(
            keys: [try HMACKey(kid: key.kid, algorithm: .hs512, secret: key.secret.value)], signingKID: key.kid)
        return try keys.signer(header: .standard(type: "at+jwt")).sign(claims)
    }

    @Test("every token issuer writes auth_time: login, refresh and ID-token sign-in, the same per session")
    func authTimeEverywhere() async throws {
        let clock = TestClock()
        try await withIdentityProvider(now: clock.now) { server, _ in
            let start = Int(clock.current().timeIntervalSince1970)
            // (Registration answers the user only; the email-code sign-in is AccountDeletionEmailTests'.)
            let login = try await server.signUp()
            let idToken = try await Self.passwordless(server)
            var tokens = [login.accessToken, idToken.access]
            clock.advance(by: 50)
            let refreshed = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(login.refreshToken)"}"#)
            tokens.append(try #require(try refreshed.object()["accessToken"] as? String))
            for token in tokens {
                let authTime = try #require(try AccountFlowTests.claims(token)["auth_time"] as? Int)
                #expect(authTime >= start - 1 && authTime <= start + 1)
            }
        }
    }

    @Test("cookie mode: DELETE /auth/account needs X-CSRF-Token, then clears the cookies, which stop working")
    func cookieMode() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp()
            let login = try await server.request(
                "POST", "/auth/login", headers: ["X-Auth-Strategy": "cookie"],
                json: #"{"email":"\#(user.email)","password":"\#(TestServer.password)"}"#)
            let field = login.headers["set-cookie"] ?? ""
            func value(_ name: String) throws -> String {
                let range = try #require(field.range(of: "\(name)="))
                return String(field[range.upperBound...].prefix { $0 != ";" && $0 != "," })
            }
            let csrf = try value("__Host-csrf_token")
            let cookie =
                "__Host-access_token=\(try value("__Host-access_token")); "
                + "__Secure-refresh_token=\(try value("__Secure-refresh_token")); __Host-csrf_token=\(csrf)"
            let body = #"{"password":"\#(TestServer.password)"}"#
            let forged = try await Self.delete(server, headers: ["Cookie": cookie], json: body)
            #expect(forged.status == 403 && forged.errorCode == "insufficient_scope")
            #expect(try await server.server.backend.users.deletedAccounts().isEmpty)
            let deleted = try await Self.delete(server, headers: ["Cookie": cookie, "X-CSRF-Token": csrf], json: body)
            #expect(deleted.status == 200)
            #expect(deleted.headers["set-cookie"]?.contains("__Host-access_token=;") == true)
            let me = try await server.request("GET", "/auth/me", headers: ["Cookie": cookie])
            #expect(me.status == 401)
            let refresh = try await server.request(
                "POST", "/auth/refresh", headers: ["Cookie": cookie, "X-CSRF-Token": csrf])
            #expect(refresh.status == 401 && refresh.errorCode == "invalid_grant")
        }
    }

    @Test("the deletion metric has a series per method from start-up")
    func metricSeries() async throws {
        try await withTestServer(mode: .router) { server in
            let text = String(decoding: server.server.metrics.exposition(), as: UTF8.self)
            for method in AccountDeletionMethod.allCases {
                #expect(text.contains(#"tokenvend_account_deletions_total{method="\#(method.rawValue)"} 0"#))
            }
        }
    }

    @Test(
        "account.reauthenticationSeconds takes 1 to 86400",
        arguments: [("0", false), ("1", true), ("86400", true), ("86401", false), ("soon", false)])
    func reauthenticationSetting(value: String, accepted: Bool) throws {
        let fixture = try ConfigurationFixture()
        let environment = ["TOKENVEND_ACCOUNT_REAUTHENTICATION_SECONDS": value]
        if accepted {
            #expect(try fixture.resolve(environment: environment).account.reauthenticationSeconds == Int(value))
        } else {
            #expect(
                fixture.error(environment: environment)?.description
                    == "account.reauthenticationSeconds (TOKENVEND_ACCOUNT_REAUTHENTICATION_SECONDS): expected an "
                    + "integer from 1 to 86400, got \(Int(value) == nil ? "\"\(value)\"" : value)")
        }
        #expect(TokenServiceConfiguration().account.reauthenticationSeconds == 300)
    }
}

/// The payload of a compact JWS as claims (no verification: the test re-signs it).
enum JSONParserBridge {
    static func claims(of token: String) throws -> JWTClaims {
        let payload = try #require(token.split(separator: ".").dropFirst().first)
        let bytes = try #require(Base64URL.decode(String(payload)))
        return JWTClaims(try JSONParser.parseObject(bytes))
    }
}
