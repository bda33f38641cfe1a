import Foundation
import JWT
import StrictJSON
import Testing
import VendorTokens

/// Each preset's token at a fixed clock and `jti`: the header and payload bytes exactly as written here, the whole
/// token equal to what an independent `JWTSigner` makes of those bytes, and the signature verified by `keySet`.
@Suite struct PresetGoldenTests {
    @Test("stream-chat signs {exp, iat, user_id} with HS256 under {alg, typ} and no kid, as Stream's SDKs do")
    func streamChat() throws {
        let template = try Fixture.template(
            #"{"preset": "stream-chat", "apiKey": "chat-key", "apiSecret": "\#(Fixture.secret32)"}"#)
        let vended = try Fixture.issue(template)
        let (header, payload) = try Fixture.segments(vended.token)
        #expect(header == #"{"alg":"HS256","typ":"JWT"}"#)
        #expect(payload == #"{"exp":1700003600,"iat":1700000000,"user_id":"u-alice"}"#)
        let key = JWTKey(try HMACKey(kid: "chat-key", algorithm: .hs256, secret: Fixture.secret32))
        let expected = try Fixture.expectedToken(
            key: key, header: JWTHeader([.algorithm, .member("typ", "JWT")]), payload: payload)
        #expect(vended.token == expected)
        #expect(vended == VendedJWT(token: expected, expiresIn: 3600, expiresAt: 1_700_003_600, kid: "chat-key"))
        try Fixture.verify(vended.token, with: template, requireKeyID: false)
        #expect(template.response == .token)
        #expect(template.parameterNames.isEmpty)
        #expect(template.algorithm == .hs256)
        #expect(template.maxTtlSeconds == 86400)
    }

    @Test("livekit signs iss = API key, sub, nbf, name and the video grant, and answers in LiveKit's shape")
    func liveKit() throws {
        let template = try Fixture.template(
            """
            {"preset": "livekit", "apiKey": "APIabc", "apiSecret": "\(Fixture.secret32)",
             "serverURL": "wss://lk.example.com", "canPublish": false}
            """)
        let vended = try Fixture.issue(template, body: #"{"room_name": "lobby-1", "participant_name": "Alice"}"#)
        let (header, payload) = try Fixture.segments(vended.token)
        #expect(header == #"{"alg":"HS256","typ":"JWT"}"#)
        #expect(
            payload
                == #"{"exp":1700000600,"iss":"APIabc","name":"Alice","nbf":1700000000,"sub":"u-alice","#
                + #""video":{"canPublish":false,"canSubscribe":true,"room":"lobby-1","roomJoin":true}}"#)
        let key = JWTKey(try HMACKey(kid: "APIabc", algorithm: .hs256, secret: Fixture.secret32))
        #expect(
            vended.token
                == (try Fixture.expectedToken(
                    key: key, header: JWTHeader([.algorithm, .member("typ", "JWT")]), payload: payload)))
        #expect(vended.expiresIn == 600)
        try Fixture.verify(vended.token, with: template, requireKeyID: false)
        #expect(template.response == .liveKit(serverURL: "wss://lk.example.com"))
        #expect(template.parameterNames == ["participant_name", "room_name"])
        #expect(template.ttlSeconds == 600)
    }

    @Test("twilio signs jti = <key sid>-<now>, iss, sub = account sid and the grants under cty twilio-fpa;v=1")
    func twilio() throws {
        let template = try Fixture.template(
            """
            {"preset": "twilio", "accountSid": "\(Fixture.accountSid)", "apiKeySid": "\(Fixture.apiKeySid)",
             "apiKeySecret": "\(Fixture.secret32)"}
            """)
        let vended = try Fixture.issue(template, body: #"{"room": "daily-standup"}"#)
        let (header, payload) = try Fixture.segments(vended.token)
        #expect(header == #"{"alg":"HS256","typ":"JWT","cty":"twilio-fpa;v=1"}"#)
        #expect(
            payload
                == #"{"exp":1700003600,"grants":{"identity":"u-alice","video":{"room":"daily-standup"}},"#
                + #""iss":"\#(Fixture.apiKeySid)","jti":"\#(Fixture.apiKeySid)-1700000000","#
                + #""sub":"\#(Fixture.accountSid)"}"#)
        let key = JWTKey(try HMACKey(kid: Fixture.apiKeySid, algorithm: .hs256, secret: Fixture.secret32))
        let header2 = JWTHeader([.algorithm, .member("typ", "JWT"), .member("cty", "twilio-fpa;v=1")])
        #expect(vended.token == (try Fixture.expectedToken(key: key, header: header2, payload: payload)))
        try Fixture.verify(vended.token, with: template, requireKeyID: false)
    }

    @Test("bloomreach-customer signs {exp, sub: {customer ids}} with the key id as kid")
    func bloomreachCustomer() throws {
        let template = try Fixture.template(
            #"{"preset": "bloomreach-customer", "keyId": "pk-1", "secret": "\#(Fixture.secret32)"}"#)
        let vended = try Fixture.issue(template)
        let (header, payload) = try Fixture.segments(vended.token)
        #expect(header == #"{"alg":"HS256","typ":"JWT","kid":"pk-1"}"#)
        #expect(payload == #"{"exp":1700003600,"sub":{"cookie":"c-42","registered":"alice@example.com"}}"#)
        let key = JWTKey(try HMACKey(kid: "pk-1", algorithm: .hs256, secret: Fixture.secret32))
        #expect(
            vended.token
                == (try Fixture.expectedToken(key: key, header: .standard(type: "JWT"), payload: payload)))
        // RFC 7519 wants a string `sub`; Bloomreach puts the ids object there. The JWT module checks the signature
        // before the claims, so this error says the signature held.
        #expect(throws: JWTError.invalidClaim("sub")) { try Fixture.verify(vended.token, with: template) }
        #expect(template.needsCustomerIDs)
        #expect(!template.emailAsRegisteredCustomerID)
    }

    @Test("bloomreach-customer with emailCustomerId says so to the caller's loader")
    func bloomreachCustomerEmail() throws {
        let template = try Fixture.template(
            #"{"preset": "bloomreach-customer", "keyId": "pk-1", "secret": "\#(Fixture.secret32)", "emailCustomerId": true}"#
        )
        #expect(template.emailAsRegisteredCustomerID)
    }

    @Test("bloomreach-stream signs {exp, iat, ids} with HS512 under {alg, typ, kid}")
    func bloomreachStream() throws {
        let template = try Fixture.template(
            #"{"preset": "bloomreach-stream", "keys": [{"kid": "k1", "secret": "\#(Fixture.secret64)"}]}"#)
        let vended = try Fixture.issue(template, body: #"{"customerIds": {"cookie": "c-42"}}"#)
        let (header, payload) = try Fixture.segments(vended.token)
        #expect(header == #"{"alg":"HS512","typ":"JWT","kid":"k1"}"#)
        #expect(payload == #"{"exp":1700003600,"iat":1700000000,"ids":{"cookie":"c-42"}}"#)
        try Fixture.verify(vended.token, with: template)
        #expect(vended.kid == "k1")
        #expect(template.algorithm == .hs512)
    }

    @Test("moss gives its settings to TokenService and never prints the project key")
    func moss() throws {
        let entry = try Fixture.entry(
            #"{"preset": "moss", "projectId": "p-1", "projectKey": "very-secret", "authURL": "https://auth.example"}"#)
        guard case .moss(let settings) = entry else {
            Issue.record("expected moss settings")
            return
        }
        #expect(
            settings == MossVendorSettings(projectId: "p-1", projectKey: "very-secret", authURL: "https://auth.example")
        )
        #expect(!"\(settings)".contains("very-secret"))
        #expect(!String(reflecting: settings).contains("very-secret"))
    }

    @Test("moss without authURL leaves the default to TokenService")
    func mossDefaultURL() throws {
        guard case .moss(let settings) = try Fixture.entry(#"{"preset": "moss", "projectId": "p", "projectKey": "k"}"#)
        else {
            Issue.record("expected moss settings")
            return
        }
        #expect(settings.authURL == nil)
    }

    @Test("a written-out EdDSA template signs deterministically with the configured private JWK")
    func edDSATemplate() throws {
        let jwk = Fixture.ed25519JWK.replacingOccurrences(of: "\"", with: "\\\"")
        let template = try Fixture.template(
            """
            {"alg": "EdDSA", "keys": [{"kid": "ed1", "privateKey": "\(jwk)"}],
             "claims": {"sub": "{{user.id}}", "sid": "{{session.id}}", "exp": "{{exp}}", "jti": "{{jti}}"}}
            """)
        let vended = try Fixture.issue(template)
        let (header, payload) = try Fixture.segments(vended.token)
        #expect(header == #"{"alg":"EdDSA","typ":"JWT","kid":"ed1"}"#)
        #expect(payload == #"{"exp":1700003600,"jti":"\#(Fixture.jti)","sid":"s-1","sub":"u-alice"}"#)
        let key = try JWTKey(jwk: JWK(json: Array(Fixture.ed25519JWK.utf8)), kid: "ed1", algorithm: .edDSA)
        #expect(
            vended.token
                == (try Fixture.expectedToken(key: key, header: .standard(type: "JWT"), payload: payload)))
        try Fixture.verify(vended.token, with: template)
    }

    @Test("a written-out ES256 template signs with a PEM private key and the signature verifies")
    func es256Template() throws {
        let key = try JWTKey.generate(kid: "ec1", algorithm: .es256)
        let pem = try key.privateKeyPEM().replacingOccurrences(of: "\n", with: "\\n")
        let template = try Fixture.template(
            """
            {"alg": "ES256", "keys": [{"kid": "ec1", "privateKey": "\(pem)"}], "header": {"typ": "JWT", "kid": "{{key.kid}}"},
             "claims": {"sub": "{{user.id}}", "role": "{{user.role}}", "tenant": "{{user.tenantId}}", "exp": "{{exp}}"}}
            """)
        let vended = try Fixture.issue(template)
        let (header, payload) = try Fixture.segments(vended.token)
        #expect(header == #"{"alg":"ES256","kid":"ec1","typ":"JWT"}"#)
        #expect(payload == #"{"exp":1700003600,"role":"user","sub":"u-alice","tenant":"t-1"}"#)
        try Fixture.verify(vended.token, with: template)
        let independent = try JWTKeySet(keys: [key], signingKID: nil)
        #expect(throws: Never.self) {
            try independent.verify(vended.token, options: .init(now: .init(timeIntervalSince1970: 1_700_000_001)))
        }
    }
}
