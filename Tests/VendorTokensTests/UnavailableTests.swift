import JWT
import StrictJSON
import Testing
import VendorTokens

/// A vendor configured without keys parses, and answers every request with `.unavailable`.
@Suite struct UnavailableTests {
    @Test(
        "configured without keys: no active kid, no key set, every issue unavailable",
        arguments: [
            Entries.template(keys: "[]"),
            #"{"alg": "HS256", "claims": {"exp": "{{exp}}"}}"#,
            #"{"preset": "stream-chat", "apiKey": "chat-key"}"#,
            #"{"preset": "livekit", "serverURL": "wss://lk"}"#,
            #"{"preset": "twilio", "accountSid": "\#(Fixture.accountSid)", "apiKeySid": "\#(Fixture.apiKeySid)"}"#,
            #"{"preset": "bloomreach-customer", "keyId": "pk"}"#,
            #"{"preset": "bloomreach-stream"}"#,
            #"{"preset": "bloomreach-stream", "keys": []}"#,
        ])
    func withoutKeys(entry: String) throws {
        let template = try Fixture.template(entry)
        #expect(template.activeKid == nil)
        #expect(template.keySet == nil)
        #expect(try Fixture.requestError(template, body: "{}") == .unavailable)
        #expect(try Fixture.requestError(template, body: #"{"anything": 1}"#) == .unavailable)
    }

    @Test("a random source that fails makes the request unavailable instead of signing without a jti")
    func randomFailure() throws {
        let entry = try Fixture.object(Entries.template(claims: #"{"exp": "{{exp}}", "jti": "{{jti}}"}"#))
        guard case .template(let template) = try VendorConfiguration.parse(name: "v", entry: entry, randomID: { "" })
        else {
            Issue.record("expected a template")
            return
        }
        #expect(throws: VendorRequestError.unavailable) {
            try template.issue(body: [:], caller: Fixture.alice, now: Fixture.now)
        }
    }
}

@Suite struct TokenIDTests {
    @Test("the default jti is 128 random bits, base64url, new for each token")
    func random() throws {
        let entry = try Fixture.object(Entries.template(claims: #"{"exp": "{{exp}}", "jti": "{{jti}}"}"#))
        guard case .template(let template) = try VendorConfiguration.parse(name: "v", entry: entry) else {
            Issue.record("expected a template")
            return
        }
        let first = try #require(try Fixture.verify(Fixture.issue(template).token, with: template).id)
        let second = try #require(try Fixture.verify(Fixture.issue(template).token, with: template).id)
        #expect(first.utf8.count == 22)
        #expect(
            first.utf8.allSatisfy {
                $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                    || (0x61...0x7A).contains($0)
            })
        #expect(first != second)
        #expect(VendorTemplate.randomID().utf8.count == 22)
    }

    @Test("jti keyAndTime is <kid>-<now>")
    func keyAndTime() throws {
        let template = try Fixture.template(
            Entries.template(claims: #"{"exp": "{{exp}}", "jti": "{{jti}}"}"#, extra: #""jti": "keyAndTime""#))
        #expect(
            try Fixture.segments(Fixture.issue(template).token).payload == #"{"exp":1700003600,"jti":"k1-1700000000"}"#)
    }

    @Test("a template that does not use {{jti}} never asks for a random id")
    func unused() throws {
        let entry = try Fixture.object(Entries.template())
        guard
            case .template(let template) = try VendorConfiguration.parse(
                name: "v", entry: entry,
                randomID: {
                    Issue.record("random id made"); return "x"
                })
        else {
            Issue.record("expected a template")
            return
        }
        _ = try Fixture.issue(template)
    }
}
