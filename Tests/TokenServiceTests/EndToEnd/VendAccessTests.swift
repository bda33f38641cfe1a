import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// Who may vend (issue 30, items 2 and 3): `vendors.<name>.roles` and `requireVerifiedEmail` refuse other
/// callers with 403 `insufficient_scope`, `{{user.email}}` is only ever a verified email, and a LiveKit or
/// Twilio vendor without `roomsByRole` is reported at startup.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct VendAccessTests {
    /// Each vendor's own secret: startup refuses one key shared by two vendors.
    static func secret(_ vendor: String) -> String { "vend-access-secret-\(vendor)-0123456789abcdef" }

    static var vendors: String {
        #"""
        {"staff": {"preset": "stream-chat", "apiKey": "staff-key", "apiSecret": "\#(secret("staff"))", "roles": ["admin"]},
         "verified": {"preset": "stream-chat", "apiKey": "verified-key", "apiSecret": "\#(secret("verified"))",
                      "requireVerifiedEmail": true},
         "project": {"preset": "moss", "projectId": "p", "projectKey": "k", "roles": ["admin"]},
         "mail": {"alg": "HS256", "keys": [{"kid": "m1", "secret": "\#(secret("mail"))"}],
                  "claims": {"sub": "{{user.id}}", "email": "{{user.email}}", "exp": "{{exp}}"}},
         "open-video": {"preset": "livekit", "apiKey": "lk", "apiSecret": "\#(secret("open-video"))", "serverURL": "wss://lk.example"},
         "lobby-video": {"preset": "livekit", "apiKey": "lk", "apiSecret": "\#(secret("lobby-video"))", "serverURL": "wss://lk.example",
                         "roomsByRole": {"user": "^lobby$"}}}
        """#
    }

    static func withServer(_ body: (TestServer) async throws -> Void) async throws {
        try await withTestServer(mode: .router, environment: ["TOKENVEND_VENDORS": vendors]) { try await body($0) }
    }

    static func payload(_ token: String) throws -> [String: Any] {
        var part = String(token.split(separator: ".")[1])
        part = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        let data = try #require(Data(base64Encoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a caller outside a vendor's roles gets 403 insufficient_scope before the body is read; a listed role vends")
    func roles() async throws {
        try await Self.withServer { server in
            let user = try await server.signUp()
            for body in [nil, #"{"undeclared": 1}"#] {
                let refused = try await server.request("POST", "/vend/staff", headers: user.bearer, json: body)
                #expect(refused.status == 403, "\(body ?? "no body")")
                #expect(refused.errorCode == "insufficient_scope")
            }
            // The moss preset too: refused before Moss is asked (no upstream runs here).
            let moss = try await server.request("POST", "/vend/project", headers: user.bearer)
            #expect(moss.status == 403 && moss.errorCode == "insufficient_scope")
            #expect(server.server.metrics.vendedTokens(vendor: "staff").value() == 0)

            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            _ = try await accounts.add(
                email: "boss@example.com", password: TestServer.password, role: "admin", tenantID: nil)
            accounts.close()
            let admin = try await server.logIn(email: "boss@example.com")
            let allowed = try await server.request("POST", "/vend/staff", headers: admin.bearer)
            #expect(allowed.status == 200)
            #expect(server.server.metrics.vendedTokens(vendor: "staff").value() == 1)
            // A vendor without roles stays open to every signed-in caller.
            let open = try await server.request("POST", "/vend/mail", headers: user.bearer)
            #expect(open.status == 200)
        }
    }

    @Test("requireVerifiedEmail refuses a self-registered email until it is verified (from the next token on)")
    func verifiedEmail() async throws {
        try await Self.withServer { server in
            let user = try await server.signUp()
            let refused = try await server.request("POST", "/vend/verified", headers: user.bearer)
            #expect(refused.status == 403 && refused.errorCode == "insufficient_scope")

            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            try await accounts.verifyEmail(email: user.email)
            accounts.close()
            let again = try await server.logIn(email: user.email)
            #expect(try await server.request("POST", "/vend/verified", headers: again.bearer).status == 200)
        }
    }

    @Test(
        "an unverified email is in neither the access token, /auth/me nor {{user.email}}; a verified one is in all three"
    )
    func emailOnlyWhenVerified() async throws {
        try await Self.withServer { server in
            let user = try await server.signUp(email: "Unverified@Example.com")
            let claims = try Self.payload(user.accessToken)
            #expect(claims["email"] == nil && claims["email_verified"] == nil)
            let me = try await server.request("GET", "/auth/me", headers: user.bearer)
            #expect(me.status == 200)
            #expect(try me.object()["email"] == nil)
            let vended = try await server.request("POST", "/vend/mail", headers: user.bearer)
            let token = try #require(try vended.object()["token"] as? String)
            let vendedClaims = try IndependentJWS.verifyHS256(token, secret: Self.secret("mail")).payload
            #expect(vendedClaims["sub"] as? String == user.userID && vendedClaims["email"] == nil)

            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            try await accounts.verifyEmail(email: user.email)
            accounts.close()
            // The next token asserts it: here a refresh, which reads the account again.
            let refreshed = try await server.request(
                "POST", "/auth/refresh", headers: ["X-Auth-Strategy": "bearer"],
                json: #"{"refreshToken":"\#(user.refreshToken)"}"#)
            let access = try #require(try refreshed.object()["accessToken"] as? String)
            let verifiedClaims = try Self.payload(access)
            #expect(verifiedClaims["email"] as? String == "unverified@example.com")
            #expect(verifiedClaims["email_verified"] as? Bool == true)
            let bearer = ["Authorization": "Bearer \(access)"]
            let verifiedMe = try await server.request("GET", "/auth/me", headers: bearer)
            #expect((try verifiedMe.object())["email"] as? String == "unverified@example.com")
            let mail = try await server.request("POST", "/vend/mail", headers: bearer)
            let mailToken = try #require(try mail.object()["token"] as? String)
            #expect(
                try IndependentJWS.verifyHS256(mailToken, secret: Self.secret("mail")).payload["email"] as? String
                    == "unverified@example.com")
        }
    }

    @Test("a livekit vendor without roomsByRole logs a startup warning naming it; one with roomsByRole does not")
    func openRoomWarning() async throws {
        try await Self.withServer { server in
            let lines = try String(contentsOf: server.logFile, encoding: .utf8).split(separator: "\n")
            let warning = "any signed-in user may join, publish and subscribe in any room"
            let warnings = lines.filter { $0.contains(warning) }
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("open-video") == true)
            #expect(warnings.first?.contains(#""level":"warning""#) == true, "\(warnings)")
            #expect(!lines.contains { $0.contains("roomsByRole") && $0.contains("lobby-video") })
        }
    }
}
