import Foundation
import Testing
import TokenService
import TokenServiceTesting

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct AccountFlowTests {
    @Test(
        "register, log in, read me, refresh and log out, as the iOS client does (over the wire and socket-free)",
        arguments: [TestServer.Mode.socket, .router])
    func fullSession(mode: TestServer.Mode) async throws {
        try await withTestServer(mode: mode) { server in
            let login = try await server.signUp(email: "Ada@Example.com ")
            #expect(login.email == "Ada@Example.com ")
            let me = try await server.request("GET", "/auth/me", headers: login.bearer)
            #expect(me.status == 200)
            let profile = try me.object()
            // A self-registered email is not verified: /auth/me, like the access token, does not assert it.
            #expect(profile["email"] == nil)
            #expect(profile["sub"] as? String == login.userID)
            #expect(profile["role"] as? String == "user")
            #expect(profile.keys.contains("tenantId"))

            let refreshed = try await server.request(
                "POST", "/auth/refresh", headers: ["X-Auth-Strategy": "bearer"],
                json: #"{"refreshToken":"\#(login.refreshToken)"}"#)
            #expect(refreshed.status == 200)
            #expect(refreshed.headers["cache-control"] == "no-store")
            #expect(refreshed.headers["pragma"] == "no-cache")
            let tokens = try refreshed.object()
            let newRefresh = try #require(tokens["refreshToken"] as? String)
            let newAccess = try #require(tokens["accessToken"] as? String)
            #expect(newRefresh != login.refreshToken)
            #expect(tokens["tokenType"] as? String == "Bearer")
            #expect(tokens["expiresIn"] as? Int == 900)

            let logout = try await server.request(
                "POST", "/auth/logout", headers: ["Authorization": "Bearer \(newAccess)"])
            #expect(logout.status == 204)
            let after = try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(newAccess)"])
            #expect(after.status == 401)
            #expect(after.errorCode == "invalid_token")
            let refreshAfter = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(newRefresh)"}"#)
            #expect(refreshAfter.status == 401)
            #expect(refreshAfter.errorCode == "invalid_grant")
        }
    }

    @Test("registration refuses a tenantId (400, nothing created) and takes null; only the operator sets a tenant")
    func tenantIsTheOperators() async throws {
        try await withTestServer(mode: .router) { server in
            for tenant in [#""acme-corp""#, #""""#, "3"] {
                let refused = try await server.request(
                    "POST", "/auth/register",
                    json: #"{"email":"mallory@example.com","password":"long enough 1","tenantId":\#(tenant)}"#)
                #expect(refused.status == 400, "\(tenant)")
                #expect(refused.errorCode == "invalid_request")
            }
            let created = try await server.request(
                "POST", "/auth/register",
                json: #"{"email":"mallory@example.com","password":"\#(TestServer.password)","tenantId":null}"#)
            #expect(created.status == 201, "the first registration of this email: nothing was created before")
            let user = try #require(try created.object()["user"] as? [String: Any])
            #expect(user["tenantId"] is NSNull)
            let login = try await server.logIn(email: "mallory@example.com")
            #expect(try Self.claims(login.accessToken)["tenantId"] is NSNull)

            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            try await accounts.setTenant(account: "mallory@example.com", tenantID: "acme-corp")
            accounts.close()
            let refreshed = try await server.request(
                "POST", "/auth/refresh", headers: ["X-Auth-Strategy": "bearer"],
                json: #"{"refreshToken":"\#(login.refreshToken)"}"#)
            let access = try #require(try refreshed.object()["accessToken"] as? String)
            #expect(try Self.claims(access)["tenantId"] as? String == "acme-corp")
            let me = try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"])
            #expect(try me.object()["tenantId"] as? String == "acme-corp")
        }
    }

    static func claims(_ token: String) throws -> [String: Any] {
        var part = String(token.split(separator: ".")[1])
        part = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        let data = try #require(Data(base64Encoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("emails are unique after NFKC, lowercasing and trimming")
    func emailNormalisation() async throws {
        try await withTestServer(mode: .router) { server in
            let first = try await server.request(
                "POST", "/auth/register", json: #"{"email":"  Zoe\u0301@Example.COM","password":"long enough 1"}"#)
            #expect(first.status == 201)
            let user = try #require(try first.object()["user"] as? [String: Any])
            #expect(user["email"] as? String == "zo\u{e9}@example.com")
            let second = try await server.request(
                "POST", "/auth/register", json: #"{"email":"zo\u00e9@example.com","password":"long enough 2"}"#)
            #expect(second.status == 409)
            #expect(second.errorCode == "email_taken")
        }
    }

    /// `text` with every printable ASCII character replaced by its full-width form (U+FF01…U+FF5E).
    static func fullWidth(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    (0x21...0x7E).contains(scalar.value) ? Unicode.Scalar(scalar.value + 0xFEE0) ?? scalar : scalar
                }))
    }

    @Test(
        "a full-width look-alike of a registered email is the same account: 409 at registration, login with either")
    func compatibilityLookAlikeEmails() async throws {
        try await withTestServer(mode: .router) { server in
            let email = "ada-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            _ = try await server.signUp(email: email)
            let wide = Self.fullWidth(email)
            #expect(wide != email && !wide.unicodeScalars.contains { $0.isASCII })
            for lookAlike in [wide, Self.fullWidth(String(email.prefix(3))) + email.dropFirst(3)] {
                let register = try await server.request(
                    "POST", "/auth/register", json: #"{"email":"\#(lookAlike)","password":"another password"}"#)
                #expect(register.status == 409)
                #expect(register.errorCode == "email_taken")
                let login = try await server.request(
                    "POST", "/auth/login", json: #"{"email":"\#(lookAlike)","password":"\#(TestServer.password)"}"#)
                #expect(login.status == 200)
                let user = try #require(try login.object()["user"] as? [String: Any])
                #expect(user["email"] as? String == email)
            }
            // A ligature folds too: "ﬁ" is "fi".
            _ = try await server.signUp(email: "fi-\(email)")
            let ligature = try await server.request(
                "POST", "/auth/register", json: #"{"email":"\#u{FB01}-\#(email)","password":"another password"}"#)
            #expect(ligature.errorCode == "email_taken")
        }
    }

    @Test("a look-alike email from another script is a different account that cannot log in as the original")
    func lookAlikeEmails() async throws {
        try await withTestServer(mode: .router) { server in
            _ = try await server.signUp(email: "paypal@example.com")
            let cyrillic = "p\u{430}ypal@example.com"
            let register = try await server.request(
                "POST", "/auth/register", json: #"{"email":"\#(cyrillic)","password":"another password"}"#)
            #expect(register.status == 201)
            let login = try await server.request(
                "POST", "/auth/login", json: #"{"email":"\#(cyrillic)","password":"\#(TestServer.password)"}"#)
            #expect(login.status == 401)
        }
    }

    @Test("SQL metacharacters in an email are stored and matched verbatim")
    func sqlMetacharacters() async throws {
        try await withTestServer(mode: .router) { server in
            let email = "o'brien\\\\\\\";--drop@example.com"
            _ = try await server.signUp(email: email)
            // Verified, so the access token (and /auth/me) carries the email as stored.
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            try await accounts.verifyEmail(email: "o'brien\\\";--drop@example.com")
            accounts.close()
            let login = try await server.logIn(email: email)
            let me = try await server.request("GET", "/auth/me", headers: login.bearer)
            #expect(try me.object()["email"] as? String == "o'brien\\\";--drop@example.com")
            let other = try await server.request(
                "POST", "/auth/login",
                json: #"{"email":"'or'1'='1'--@example.com","password":"\#(TestServer.password)"}"#)
            #expect(other.status == 401)
        }
    }

    @Test(
        "registration rejects bad input with 400, 415 or 403",
        arguments: [
            (#"{"email":"not-an-email","password":"long enough 1"}"#, 400),
            (#"{"email":"a b@example.com","password":"long enough 1"}"#, 400),
            (#"{"email":"a@example.com","password":"short"}"#, 400),
            (#"{"email":"a@example.com"}"#, 400),
            (#"{"email":"a@example.com","password":"long enough 1","admin":true}"#, 400),
            (#"{"email":"a@example.com","password":12345678}"#, 400),
            (#"{"email":"a@example.com","email":"b@example.com","password":"long enough 1"}"#, 400),
            (#"[1,2,3]"#, 400),
            (#"{"email":"#, 400),
        ])
    func registrationValidation(body: String, status: Int) async throws {
        try await withTestServer(mode: .router) { server in
            let response = try await server.request("POST", "/auth/register", json: body)
            #expect(response.status == status)
            #expect(response.errorCode == "invalid_request")
        }
    }

    @Test("a body that is not JSON gets 415")
    func unsupportedMediaType() async throws {
        try await withTestServer(mode: .router) { server in
            let response = try await server.request(
                "POST", "/auth/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                json: "email=a%40example.com&password=x")
            #expect(response.status == 415)
            #expect(response.errorCode == "unsupported_media_type")
        }
    }

    @Test("a password of 129 characters is refused at registration")
    func passwordTooLong() async throws {
        try await withTestServer(mode: .router) { server in
            let password = String(repeating: "é", count: 129)
            let response = try await server.request(
                "POST", "/auth/register", json: #"{"email":"long@example.com","password":"\#(password)"}"#)
            #expect(response.status == 400)
            let exactly = String(repeating: "é", count: 128)
            let accepted = try await server.request(
                "POST", "/auth/register", json: #"{"email":"long@example.com","password":"\#(exactly)"}"#)
            #expect(accepted.status == 201)
        }
    }

    @Test("registration can be closed by configuration")
    func registrationClosed() async throws {
        try await withTestServer(mode: .router, environment: ["TOKENVEND_REGISTRATION_ENABLED": "false"]) { server in
            let response = try await server.request(
                "POST", "/auth/register", json: #"{"email":"a@example.com","password":"long enough 1"}"#)
            #expect(response.status == 403)
            #expect(response.errorCode == "registration_closed")
        }
    }
}
