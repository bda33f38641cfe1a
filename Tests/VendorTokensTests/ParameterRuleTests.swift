import Testing
import VendorTokens

/// A request body and the error `issue` must answer it with.
struct RequestCase: Sendable, CustomTestStringConvertible {
    let label: String
    let body: String
    let error: VendorRequestError
    var testDescription: String { label }

    init(_ label: String, _ body: String, _ error: VendorRequestError) {
        self.label = label
        self.body = body
        self.error = error
    }
}

@Suite struct ParameterRuleTests {
    /// One template declaring a parameter of every type and rule.
    static let entry = Entries.template(
        claims: """
            {"exp": "{{exp}}", "room": "{{param.room}}", "kind": "{{param.kind}}", "count": "{{param.count}}",
             "muted": "{{param.muted}}", "stage": "{{param.stage}}", "note": "{{param.note}}"}
            """,
        parameters: """
            {"room": {"type": "string", "required": true, "pattern": "^[a-z0-9_-]{1,16}$"},
             "kind": {"type": "string", "enum": ["audio", "video"]},
             "count": {"type": "integer", "minimum": 1, "maximum": 10},
             "muted": {"type": "boolean"},
             "stage": {"type": "string"},
             "note": {"type": "string", "maxLength": 8}}
            """)

    static let refusals: [RequestCase] = [
        RequestCase("required parameter absent", #"{"kind": "audio"}"#, .missingParameter("room")),
        RequestCase(
            "required parameter null", #"{"room": null}"#,
            .invalidParameter("room", reason: "null is not a value; leave the member out instead")),
        RequestCase(
            "optional parameter null", #"{"room": "a", "kind": null}"#,
            .invalidParameter("kind", reason: "null is not a value; leave the member out instead")),
        RequestCase(
            "string given a number", #"{"room": 5}"#, .invalidParameter("room", reason: "expected a string")),
        RequestCase(
            "pattern not matched", #"{"room": "Lobby"}"#,
            .invalidParameter("room", reason: "does not match the pattern ^[a-z0-9_-]{1,16}$")),
        RequestCase(
            "pattern matched only in part", #"{"room": "lobby\n"}"#,
            .invalidParameter("room", reason: "does not match the pattern ^[a-z0-9_-]{1,16}$")),
        RequestCase(
            "enum not matched", #"{"room": "a", "kind": "screen"}"#,
            .invalidParameter("kind", reason: "must be one of audio, video")),
        RequestCase(
            "maxLength exceeded", #"{"room": "a", "note": "123456789"}"#,
            .invalidParameter("note", reason: "longer than 8 bytes")),
        RequestCase(
            "maxLength counts UTF-8 bytes", #"{"room": "a", "note": "ééééé"}"#,
            .invalidParameter("note", reason: "longer than 8 bytes")),
        RequestCase(
            "integer below the minimum", #"{"room": "a", "count": 0}"#,
            .invalidParameter("count", reason: "below the minimum 1")),
        RequestCase(
            "integer above the maximum", #"{"room": "a", "count": 11}"#,
            .invalidParameter("count", reason: "above the maximum 10")),
        RequestCase(
            "integer given a fraction", #"{"room": "a", "count": 2.5}"#,
            .invalidParameter("count", reason: "expected an integer")),
        RequestCase(
            "integer given an exponent", #"{"room": "a", "count": 2e0}"#,
            .invalidParameter("count", reason: "expected an integer")),
        RequestCase(
            "integer given a string", #"{"room": "a", "count": "2"}"#,
            .invalidParameter("count", reason: "expected an integer")),
        RequestCase(
            "boolean given a string", #"{"room": "a", "muted": "true"}"#,
            .invalidParameter("muted", reason: "expected true or false")),
        RequestCase(
            "boolean given a number", #"{"room": "a", "muted": 1}"#,
            .invalidParameter("muted", reason: "expected true or false")),
        RequestCase(
            "undeclared member", #"{"room": "a", "user_id": "u-bob"}"#, .undeclaredParameter("user_id", reason: nil)),
    ]

    @Test("refuses the body, and signs nothing", arguments: refusals)
    func refuses(_ request: RequestCase) throws {
        let template = try Fixture.template(Self.entry)
        #expect(try Fixture.requestError(template, body: request.body) == request.error)
    }

    @Test("a body that follows every rule is signed with each value in its declared type")
    func accepts() throws {
        let template = try Fixture.template(Self.entry)
        let vended = try Fixture.issue(
            template,
            body:
                #"{"room": "lobby-1", "kind": "video", "count": 10, "muted": false, "stage": "lobby-a", "note": "12345678"}"#
        )
        let (_, payload) = try Fixture.segments(vended.token)
        #expect(
            payload
                == #"{"count":10,"exp":1700003600,"kind":"video","muted":false,"note":"12345678","room":"lobby-1","#
                + #""stage":"lobby-a"}"#)
        #expect(template.parameterNames == ["count", "kind", "muted", "note", "room", "stage"])
        #expect(!template.needsCustomerIDs)
    }

    @Test("optional parameters left out omit their members")
    func optionalOmitted() throws {
        let template = try Fixture.template(Self.entry)
        let vended = try Fixture.issue(template, body: #"{"room": "a"}"#)
        let (_, payload) = try Fixture.segments(vended.token)
        #expect(payload == #"{"exp":1700003600,"room":"a"}"#)
    }

    @Test("allowedByRole lets each listed role have only what its pattern matches, and nobody leaves it out")
    func allowedByRole() throws {
        let template = try Fixture.template(
            Entries.parameter(
                #"{"type": "string", "required": true, "allowedByRole": {"admin": "^.*$", "user": "^lobby-.*$"}}"#,
                name: "stage"))
        let admin = Fixture.caller(role: "admin")
        let guest = Fixture.caller(role: "guest")
        #expect(throws: Never.self) { try Fixture.issue(template, body: #"{"stage": "backstage"}"#, caller: admin) }
        #expect(throws: Never.self) { try Fixture.issue(template, body: #"{"stage": "lobby-1"}"#) }
        #expect(try Fixture.requestError(template, body: #"{"stage": "backstage"}"#) == .notPermitted("stage"))
        #expect(
            try Fixture.requestError(template, body: #"{"stage": "lobby-1"}"#, caller: guest) == .notPermitted("stage"))
        // The rule's parameter is required, so no role escapes it by leaving the parameter out.
        #expect(try Fixture.requestError(template, body: "{}", caller: guest) == .missingParameter("stage"))
    }

    @Test("Twilio's roomsByRole limits room per role and makes room required; without it room stays optional")
    func twilioRoomsByRole() throws {
        let sids = #""accountSid": "\#(Fixture.accountSid)", "apiKeySid": "\#(Fixture.apiKeySid)""#
        let limited = try Fixture.template(
            #"{"preset": "twilio", \#(sids), "apiKeySecret": "\#(Fixture.secret32)", "#
                + #""roomsByRole": {"user": "^lobby-[0-9]+$"}}"#)
        #expect(throws: Never.self) { try Fixture.issue(limited, body: #"{"room": "lobby-7"}"#) }
        #expect(try Fixture.requestError(limited, body: #"{"room": "board"}"#) == .notPermitted("room"))
        #expect(try Fixture.requestError(limited, body: "{}") == .missingParameter("room"))
        #expect(
            try Fixture.requestError(limited, body: #"{"room": "lobby-7"}"#, caller: Fixture.caller(role: "admin"))
                == .notPermitted("room"))
        let open = try Fixture.template(
            #"{"preset": "twilio", \#(sids), "apiKeySecret": "\#(Fixture.secret32)"}"#)
        #expect(throws: Never.self) { try Fixture.issue(open, body: "{}") }
    }

    @Test("LiveKit refuses participant_identity with its reason: the identity is the signed-in user")
    func participantIdentity() throws {
        let template = try Fixture.template(
            #"{"preset": "livekit", "apiKey": "k", "apiSecret": "\#(Fixture.secret32)", "serverURL": "wss://lk"}"#)
        let error = try Fixture.requestError(
            template, body: #"{"room_name": "a", "participant_identity": "u-bob"}"#)
        #expect(error == .undeclaredParameter("participant_identity", reason: "the identity is the signed-in user"))
        #expect(try Fixture.requestError(template, body: "{}") == .missingParameter("room_name"))
        #expect(
            try Fixture.requestError(template, body: #"{"room_name": "a b"}"#)
                == .invalidParameter("room_name", reason: "does not match the pattern ^[A-Za-z0-9_-]{1,64}$"))
        #expect(
            try Fixture.requestError(template, body: #"{"room_name": "\#(String(repeating: "r", count: 65))"}"#)
                == .invalidParameter("room_name", reason: "does not match the pattern ^[A-Za-z0-9_-]{1,64}$"))
        #expect(
            try Fixture.requestError(
                template, body: #"{"room_name": "a", "participant_name": "\#(String(repeating: "n", count: 129))"}"#)
                == .invalidParameter("participant_name", reason: "longer than 128 bytes"))
    }

    @Test("LiveKit's roomsByRole limits room_name per role")
    func roomsByRole() throws {
        let template = try Fixture.template(
            """
            {"preset": "livekit", "apiKey": "k", "apiSecret": "\(Fixture.secret32)", "serverURL": "https://lk.example",
             "roomsByRole": {"admin": "^.*$", "user": "^lobby-[0-9]+$"}}
            """)
        #expect(throws: Never.self) { try Fixture.issue(template, body: #"{"room_name": "lobby-7"}"#) }
        #expect(try Fixture.requestError(template, body: #"{"room_name": "board"}"#) == .notPermitted("room_name"))
        #expect(throws: Never.self) {
            try Fixture.issue(template, body: #"{"room_name": "board"}"#, caller: Fixture.caller(role: "admin"))
        }
        #expect(
            try Fixture.requestError(
                template, body: #"{"room_name": "lobby-7"}"#, caller: Fixture.caller(role: "guest"))
                == .notPermitted("room_name"))
    }
}

/// `customerIds` parameters: only the caller's own pairs, all of them when absent, never none.
@Suite struct CustomerIDsParameterTests {
    static let template = #"{"preset": "bloomreach-stream", "keys": [{"kid": "k1", "secret": "\#(Fixture.secret64)"}]}"#

    @Test("a subset of the caller's ids is signed as asked")
    func subset() throws {
        let vended = try Fixture.issue(
            try Fixture.template(Self.template), body: #"{"customerIds": {"cookie": "c-42"}}"#)
        #expect(try Fixture.segments(vended.token).payload.contains(#""ids":{"cookie":"c-42"}"#))
    }

    @Test("absent means all of the caller's ids, sorted by key")
    func absent() throws {
        let vended = try Fixture.issue(try Fixture.template(Self.template), body: "{}")
        #expect(
            try Fixture.segments(vended.token).payload.contains(
                #""ids":{"cookie":"c-42","registered":"alice@example.com"}"#))
    }

    @Test(
        "a pair that is not the caller's, or no ids at all, is not permitted",
        arguments: [
            #"{"customerIds": {"registered": "bob@example.com"}}"#,
            #"{"customerIds": {"cookie": "c-42", "registered": "bob@example.com"}}"#,
            #"{"customerIds": {"other": "c-42"}}"#,
            #"{"customerIds": {}}"#,
        ])
    func foreign(body: String) throws {
        let template = try Fixture.template(Self.template)
        #expect(try Fixture.requestError(template, body: body) == .notPermitted("customerIds"))
    }

    @Test("a caller without customer ids gets no token")
    func callerWithoutIDs() throws {
        let template = try Fixture.template(Self.template)
        #expect(
            try Fixture.requestError(template, body: "{}", caller: Fixture.caller(customerIDs: [:]))
                == .notPermitted("customerIds"))
    }

    @Test(
        "customerIds that are not an object of strings are invalid",
        arguments: [#"{"customerIds": ["c-42"]}"#, #"{"customerIds": {"cookie": 42}}"#, #"{"customerIds": "c-42"}"#])
    func malformed(body: String) throws {
        let template = try Fixture.template(Self.template)
        #expect(
            try Fixture.requestError(template, body: body)
                == .invalidParameter("customerIds", reason: "expected an object of customer id strings"))
    }

    @Test("customerIds: null is refused as /stream-token refuses it, not read as all of the caller's ids")
    func null() throws {
        let template = try Fixture.template(Self.template)
        #expect(
            try Fixture.requestError(template, body: #"{"customerIds": null}"#)
                == .invalidParameter("customerIds", reason: "null is not a value; leave the member out instead"))
    }

    @Test("{{user.customerIds}} is the caller's ids; the template then needs them")
    func userCustomerIDs() throws {
        let template = try Fixture.template(
            Entries.template(claims: #"{"exp": "{{exp}}", "ids": "{{user.customerIds}}"}"#))
        #expect(template.needsCustomerIDs)
        let vended = try Fixture.issue(template)
        #expect(
            try Fixture.segments(vended.token).payload
                == #"{"exp":1700003600,"ids":{"cookie":"c-42","registered":"alice@example.com"}}"#)
    }
}
