import JWT
import Testing
import VendorTokens

/// Absent values omit their member; an object left empty by omissions is omitted too; array elements are dropped.
@Suite struct OmissionTests {
    @Test("an optional parameter that is absent omits its member")
    func optionalParameter() throws {
        let template = try Fixture.template(
            #"{"preset": "livekit", "apiKey": "k", "apiSecret": "\#(Fixture.secret32)", "serverURL": "wss://lk"}"#)
        let payload = try Fixture.segments(Fixture.issue(template, body: #"{"room_name": "r"}"#).token).payload
        #expect(!payload.contains("\"name\""))
        #expect(
            payload
                == #"{"exp":1700000600,"iss":"k","nbf":1700000000,"sub":"u-alice","#
                + #""video":{"canPublish":true,"canSubscribe":true,"room":"r","roomJoin":true}}"#)
    }

    @Test("Twilio without a room omits the video grant left empty, keeping the identity")
    func twilioWithoutRoom() throws {
        let template = try Fixture.template(
            """
            {"preset": "twilio", \(Entries.twilioSids), "apiKeySecret": "\(Fixture.secret32)"}
            """)
        let payload = try Fixture.segments(Fixture.issue(template).token).payload
        #expect(payload.contains(#""grants":{"identity":"u-alice"}"#))
        #expect(!payload.contains("video"))
    }

    @Test("a user without email or tenant omits email and tenant")
    func userWithoutEmail() throws {
        let template = try Fixture.template(
            Entries.template(
                claims:
                    #"{"exp": "{{exp}}", "email": "{{user.email}}", "tenant": "{{user.tenantId}}", "sub": "{{user.id}}"}"#
            ))
        let with = try Fixture.segments(Fixture.issue(template).token).payload
        #expect(with == #"{"email":"alice@example.com","exp":1700003600,"sub":"u-alice","tenant":"t-1"}"#)
        let caller = Fixture.caller(email: nil, tenantID: nil)
        let without = try Fixture.segments(Fixture.issue(template, caller: caller).token).payload
        #expect(without == #"{"exp":1700003600,"sub":"u-alice"}"#)
    }

    @Test("nested objects left empty are omitted at every level, array elements dropped, literals kept")
    func nested() throws {
        let template = try Fixture.template(
            Entries.template(
                claims: """
                    {"exp": "{{exp}}", "a": {"b": {"c": "{{user.email}}"}, "d": "{{user.tenantId}}"},
                     "list": ["{{user.email}}", 1, "{{user.tenantId}}", {"e": "{{user.email}}"}], "meta": {},
                     "keep": {"x": "{{user.email}}", "y": true}}
                    """))
        let caller = Fixture.caller(email: nil, tenantID: nil)
        let payload = try Fixture.segments(Fixture.issue(template, caller: caller).token).payload
        #expect(payload == #"{"exp":1700003600,"keep":{"y":true},"list":[1],"meta":{}}"#)
        let full = try Fixture.segments(Fixture.issue(template).token).payload
        #expect(
            full
                == #"{"a":{"b":{"c":"alice@example.com"},"d":"t-1"},"exp":1700003600,"keep":{"x":"alice@example.com","#
                + #""y":true},"list":["alice@example.com",1,"t-1",{"e":"alice@example.com"}],"meta":{}}"#)
    }

    @Test("every placeholder renders in its type; strings are JSON-escaped")
    func types() throws {
        let template = try Fixture.template(
            Entries.template(
                claims: """
                    {"exp": "{{exp}}", "iat": "{{now}}", "sid": "{{session.id}}", "role": "{{user.role}}",
                     "kid": "{{key.kid}}", "jti": "{{jti}}", "sub": "{{user.id}}", "lit": "a/b\\u0001"}
                    """))
        let caller = VendorCaller(
            userID: "u\"1\\\n", sessionID: "s-1", email: nil, role: "admin", tenantID: nil, customerIDs: [:])
        let payload = try Fixture.segments(Fixture.issue(template, caller: caller).token).payload
        #expect(
            payload
                == #"{"exp":1700003600,"iat":1700000000,"jti":"\#(Fixture.jti)","kid":"k1","lit":"a/b\u0001","#
                + #""role":"admin","sid":"s-1","sub":"u\"1\\\n"}"#)
    }
}
