import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// `POST /vend/{vendor}` end to end, on the real server: every preset's answer checked with a signature check that
/// uses none of the project's code (``IndependentJWS``), parameter rules, scope refusals, rotation, cookie mode,
/// a vendor without keys, and the per-vendor counter. The vendors' own SDKs check the same tokens in
/// `scripts/vendor-sdk-check.sh`.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct VendEndpointTests {
    static let chatSecret = "chat-secret-chat-secret-chat-secret-0001"
    static let videoSecret = "video-secret-video-secret-video-secret-01"
    static let twilioSecret = "twilio-secret-twilio-secret-twilio-0001"
    static let engagementSecret = "engagement-secret-engagement-secret-0001"
    static let customSecrets = (
        "custom-one-custom-one-custom-one-custom-01", "custom-two-custom-two-custom-two-custom-02"
    )
    static let accountSid = "AC" + String(repeating: "0123456789abcdef", count: 2)
    static let apiKeySid = "SK" + String(repeating: "fedcba9876543210", count: 2)

    static var vendors: String {
        #"""
        {"chat": {"preset": "stream-chat", "apiKey": "chat-key", "apiSecret": "\#(chatSecret)"},
         "video": {"preset": "livekit", "apiKey": "lk-key", "apiSecret": "\#(videoSecret)",
                   "serverURL": "wss://video.example.com", "canPublish": false,
                   "roomsByRole": {"user": "^lobby-[a-z0-9-]+$", "admin": "^.*$"}},
         "twilio": {"preset": "twilio", "accountSid": "\#(accountSid)", "apiKeySid": "\#(apiKeySid)",
                    "apiKeySecret": "\#(twilioSecret)", "ttlSeconds": 1800},
         "engagement": {"preset": "bloomreach-customer", "keyId": "br-key-1", "secret": "\#(engagementSecret)"},
         "custom": {"alg": "HS256", "keys": [{"kid": "k1", "secret": "\#(customSecrets.0)"},
                                             {"kid": "k2", "secret": "\#(customSecrets.1)"}],
                    "activeKid": "k2", "ttlSeconds": 120,
                    "claims": {"sub": "{{user.id}}", "sid": "{{session.id}}", "role": "{{user.role}}",
                               "email": "{{user.email}}", "tenant": "{{user.tenantId}}", "iat": "{{now}}",
                               "exp": "{{exp}}", "jti": "{{jti}}", "level": "{{param.level}}",
                               "aud": ["chat", "{{key.kid}}"]},
                    "parameters": {"level": {"type": "integer", "minimum": 1, "maximum": 3}}},
         "later": {"preset": "stream-chat", "apiKey": "later-key"}}
        """#
    }

    static func withVendServer(_ body: (TestServer) async throws -> Void) async throws {
        try await withTestServer(mode: .router, environment: ["TOKENVEND_VENDORS": vendors]) { server in
            try await body(server)
        }
    }

    @Test("SHA-256 and HMAC-SHA256 of the independent checker match FIPS 180-4 and RFC 4231 vectors")
    func independentChecker() {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(
            hex(IndependentJWS.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(IndependentJWS.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test(
        "stream-chat: 200 {token, expiresIn, expiresAt}, no-store, user_id/iat/exp of the caller, HS256 with the API secret"
    )
    func streamChat() async throws {
        try await Self.withVendServer { server in
            let user = try await server.signUp()
            let before = Int(Date().timeIntervalSince1970)
            let response = try await server.request("POST", "/vend/chat", headers: user.bearer)
            #expect(response.status == 200)
            #expect(response.headers["cache-control"] == "no-store")
            let body = try response.object()
            #expect(body["expiresIn"] as? Int == 3600)
            let expiresAt = try #require(body["expiresAt"] as? Int)
            let token = try #require(body["token"] as? String)
            let (header, payload) = try IndependentJWS.verifyHS256(token, secret: Self.chatSecret)
            #expect(header as? [String: String] == ["alg": "HS256", "typ": "JWT"])
            #expect(Set(payload.keys) == ["user_id", "iat", "exp"])
            #expect(payload["user_id"] as? String == user.userID)
            let iat = try #require(payload["iat"] as? Int)
            #expect(payload["exp"] as? Int == expiresAt)
            #expect(expiresAt - iat == 3600)
            #expect(iat >= before - 1 && iat <= before + 60)
            #expect(server.server.metrics.vendedTokens(vendor: "chat").value() == 1)
            #expect(server.server.metrics.tokensIssued.value(.vendor) == 1)
        }
    }

    @Test("livekit: 201 {server_url, participant_token}; identity and room are the caller's and the request's")
    func liveKit() async throws {
        try await Self.withVendServer { server in
            let user = try await server.signUp()
            let response = try await server.request(
                "POST", "/vend/video", headers: user.bearer,
                json: #"{"room_name":"lobby-1","participant_name":"Ada"}"#)
            #expect(response.status == 201)
            #expect(response.headers["cache-control"] == "no-store")
            let body = try response.object()
            #expect(body["server_url"] as? String == "wss://video.example.com")
            #expect(Set(body.keys) == ["server_url", "participant_token"])
            let token = try #require(body["participant_token"] as? String)
            let (_, payload) = try IndependentJWS.verifyHS256(token, secret: Self.videoSecret)
            #expect(payload["iss"] as? String == "lk-key")
            #expect(payload["sub"] as? String == user.userID)
            #expect(payload["name"] as? String == "Ada")
            let video = try #require(payload["video"] as? [String: Any])
            #expect(video["room"] as? String == "lobby-1")
            #expect(video["roomJoin"] as? Bool == true)
            #expect(video["canPublish"] as? Bool == false)
            #expect(video["canSubscribe"] as? Bool == true)
            let nbf = try #require(payload["nbf"] as? Int)
            #expect(payload["exp"] as? Int == nbf + 600)

            let unnamed = try await server.request(
                "POST", "/vend/video", headers: user.bearer, json: #"{"room_name":"lobby-2"}"#)
            let unnamedToken = try #require(try unnamed.object()["participant_token"] as? String)
            #expect(try IndependentJWS.verifyHS256(unnamedToken, secret: Self.videoSecret).payload["name"] == nil)
        }
    }

    @Test("livekit: a room the caller's role may not join is 403 and nothing is signed; an admin may join it")
    func liveKitRoomByRole() async throws {
        try await Self.withVendServer { server in
            let user = try await server.signUp()
            let refused = try await server.request(
                "POST", "/vend/video", headers: user.bearer, json: #"{"room_name":"board"}"#)
            #expect(refused.status == 403)
            #expect(refused.errorCode == "insufficient_scope")
            #expect(server.server.metrics.vendedTokens(vendor: "video").value() == 0)

            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            _ = try await accounts.add(
                email: "admin@example.com", password: TestServer.password, role: "admin", tenantID: nil)
            accounts.close()
            let admin = try await server.logIn(email: "admin@example.com")
            let allowed = try await server.request(
                "POST", "/vend/video", headers: admin.bearer, json: #"{"room_name":"board"}"#)
            #expect(allowed.status == 201)
        }
    }

    @Test(
        "a body the vendor does not declare, or breaks a rule of, is 400 naming the member",
        arguments: [
            ("video", #"{"room_name":"lobby-1","participant_identity":"someone-else"}"#, "participant_identity"),
            ("video", #"{"participant_name":"Ada"}"#, "room_name"),
            ("video", #"{"room_name":"lobby 1"}"#, "room_name"),
            ("video", #"{"room_name":42}"#, "room_name"),
            ("video", #"{"room_name":null}"#, "room_name"),
            ("chat", #"{"user_id":"someone-else"}"#, "user_id"),
            ("custom", #"{"level":4}"#, "level"),
            ("custom", #"{"level":"2"}"#, "level"),
            ("engagement", #"{"customerIds":{"registered":7}}"#, "customerIds"),
        ])
    func parameterRules(vendor: String, body: String, member: String) async throws {
        try await Self.withVendServer { server in
            let user = try await server.signUp()
            let response = try await server.request("POST", "/vend/\(vendor)", headers: user.bearer, json: body)
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_request")
            let message = try #require(try response.object()["message"] as? String)
            #expect(message.contains("\"\(member)\""), "\(message)")
            #expect(server.server.metrics.vendedTokens(vendor: vendor).value() == 0)
        }
    }

    @Test("twilio: cty header, jti <key sid>-<now>, iss/sub the SIDs, identity grant; the video grant only with a room")
    func twilio() async throws {
        try await Self.withVendServer { server in
            let user = try await server.signUp()
            let response = try await server.request(
                "POST", "/vend/twilio", headers: user.bearer, json: #"{"room":"daily-standup"}"#)
            #expect(response.status == 200)
            let token = try #require(try response.object()["token"] as? String)
            let (header, payload) = try IndependentJWS.verifyHS256(token, secret: Self.twilioSecret)
            #expect(header as? [String: String] == ["alg": "HS256", "typ": "JWT", "cty": "twilio-fpa;v=1"])
            let exp = try #require(payload["exp"] as? Int)
            #expect(payload["jti"] as? String == "\(Self.apiKeySid)-\(exp - 1800)")
            #expect(payload["iss"] as? String == Self.apiKeySid)
            #expect(payload["sub"] as? String == Self.accountSid)
            let grants = try #require(payload["grants"] as? [String: Any])
            #expect(grants["identity"] as? String == user.userID)
            #expect((grants["video"] as? [String: String]) == ["room": "daily-standup"])

            let plain = try await server.request("POST", "/vend/twilio", headers: user.bearer)
            let plainToken = try #require(try plain.object()["token"] as? String)
            let plainGrants = try IndependentJWS.verifyHS256(plainToken, secret: Self.twilioSecret).payload["grants"]
            #expect((plainGrants as? [String: String]) == ["identity": user.userID])
        }
    }

    @Test("bloomreach-customer: kid is the key id, sub the caller's customer ids; foreign or no ids are 403")
    func bloomreachCustomer() async throws {
        try await Self.withVendServer { server in
            let user = try await server.signUp()
            let response = try await server.request("POST", "/vend/engagement", headers: user.bearer)
            #expect(response.status == 200)
            let token = try #require(try response.object()["token"] as? String)
            let (header, payload) = try IndependentJWS.verifyHS256(token, secret: Self.engagementSecret)
            #expect(header as? [String: String] == ["alg": "HS256", "typ": "JWT", "kid": "br-key-1"])
            #expect(payload["sub"] as? [String: String] == ["registered": user.userID])
            #expect(Set(payload.keys) == ["sub", "exp"])

            let own = try await server.request(
                "POST", "/vend/engagement", headers: user.bearer,
                json: #"{"customerIds":{"registered":"\#(user.userID)"}}"#)
            #expect(own.status == 200)
            for body in [
                #"{"customerIds":{"registered":"someone-else"}}"#, #"{"customerIds":{"crm":"C-1"}}"#,
                #"{"customerIds":{}}"#,
            ] {
                let refused = try await server.request("POST", "/vend/engagement", headers: user.bearer, json: body)
                #expect(refused.status == 403, "\(body)")
                #expect(refused.errorCode == "insufficient_scope")
            }
            #expect(server.server.metrics.vendedTokens(vendor: "engagement").value() == 2)
        }
    }

    @Test("a template signs with its active key (kid k2), the session's identity, a typed parameter and a random jti")
    func customTemplateAndRotation() async throws {
        try await Self.withVendServer { server in
            let user = try await server.signUp()
            var jtis: Set<String> = []
            for _ in 0..<2 {
                let response = try await server.request(
                    "POST", "/vend/custom", headers: user.bearer, json: #"{"level":2}"#)
                #expect(response.status == 200)
                let token = try #require(try response.object()["token"] as? String)
                let (header, payload) = try IndependentJWS.verifyHS256(token, secret: Self.customSecrets.1)
                #expect(header as? [String: String] == ["alg": "HS256", "typ": "JWT", "kid": "k2"])
                #expect(payload["sub"] as? String == user.userID)
                #expect(payload["role"] as? String == "user")
                #expect(payload["email"] == nil, "a self-registered email is unverified: the member is left out")
                #expect(payload["tenant"] == nil, "no tenant: the member is left out")
                #expect((payload["sid"] as? String)?.isEmpty == false)
                #expect(payload["level"] as? Int == 2)
                #expect(payload["aud"] as? [String] == ["chat", "k2"])
                let jti = try #require(payload["jti"] as? String)
                #expect(jti.count >= 22)
                jtis.insert(jti)
                let iat = try #require(payload["iat"] as? Int)
                #expect(payload["exp"] as? Int == iat + 120)
            }
            #expect(jtis.count == 2)
            let unlevelled = try await server.request("POST", "/vend/custom", headers: user.bearer)
            let token = try #require(try unlevelled.object()["token"] as? String)
            #expect(try IndependentJWS.verifyHS256(token, secret: Self.customSecrets.1).payload["level"] == nil)
        }
    }

    @Test("an unknown vendor is 404 to a signed-in caller and 401 without a token; a vendor without keys is 503")
    func unknownAndUnavailable() async throws {
        try await Self.withVendServer { server in
            let user = try await server.signUp()
            let unknown = try await server.request("POST", "/vend/nobody", headers: user.bearer)
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "not_found")
            let anonymous = try await server.request("POST", "/vend/chat")
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["www-authenticate"] == #"Bearer realm="tokenvend""#)
            let anonymousUnknown = try await server.request("POST", "/vend/nobody")
            #expect(anonymousUnknown.status == 401)
            let later = try await server.request("POST", "/vend/later", headers: user.bearer)
            #expect(later.status == 503)
            #expect(later.errorCode == "unavailable")
            #expect(later.headers["retry-after"] == "3600")
            let wrongType = try await server.request(
                "POST", "/vend/chat", headers: user.bearer.merging(["Content-Type": "text/plain"]) { $1 }, json: "{}")
            #expect(wrongType.status == 415)
            let notJSON = try await server.request("POST", "/vend/chat", headers: user.bearer, json: "[1]")
            #expect(notJSON.status == 400)
        }
    }

    @Test("cookie mode: a vend needs the CSRF header like every unsafe request")
    func cookieMode() async throws {
        try await Self.withVendServer { server in
            _ = try await server.signUp(email: "cookie@example.com")
            let login = try await server.request(
                "POST", "/auth/login", headers: ["X-Auth-Strategy": "cookie"],
                json: #"{"email":"cookie@example.com","password":"\#(TestServer.password)"}"#)
            #expect(login.status == 200)
            let setCookie = try #require(login.headers["set-cookie"])
            let access = try #require(Self.cookie("__Host-access_token", in: setCookie))
            let csrf = try #require(Self.cookie("__Host-csrf_token", in: setCookie))
            let cookie = "__Host-access_token=\(access); __Host-csrf_token=\(csrf)"
            let refused = try await server.request(
                "POST", "/vend/chat", headers: ["Cookie": cookie, "X-CSRF-Token": "nope"])
            #expect(refused.status == 403)
            let accepted = try await server.request(
                "POST", "/vend/chat", headers: ["Cookie": cookie, "X-CSRF-Token": csrf])
            #expect(accepted.status == 200)
        }
    }

    static func cookie(_ name: String, in header: String) -> String? {
        for part in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
        }
        return nil
    }
}
