import JWT
import Testing
import VendorTokens

@Suite struct RotationTests {
    static func ring(activeKid: String) -> String {
        Entries.template(
            extra: #""activeKid": "\#(activeKid)""#,
            keys:
                #"[{"kid": "k1", "secret": "\#(Fixture.secret32)"}, {"kid": "k2", "secret": "\#(Fixture.otherSecret64)"}]"#
        )
    }

    @Test("activeKid k2 signs with k2, and tokens k1 signed before the switch still verify")
    func rotation() throws {
        let before = try Fixture.template(Self.ring(activeKid: "k1"))
        let after = try Fixture.template(Self.ring(activeKid: "k2"))
        #expect(after.activeKid == "k2")
        let old = try Fixture.issue(before)
        let new = try Fixture.issue(after)
        #expect(old.kid == "k1")
        #expect(new.kid == "k2")
        #expect(try Fixture.segments(new.token).header == #"{"alg":"HS256","typ":"JWT","kid":"k2"}"#)
        #expect(try Fixture.verify(old.token, with: after).subject == "u-alice")
        #expect(try Fixture.verify(new.token, with: after).subject == "u-alice")
        #expect(try Fixture.verify(new.token, with: before).subject == "u-alice")
        #expect(after.keySet?.keys.map(\.kid) == ["k1", "k2"])
    }

    @Test("without activeKid the first key signs")
    func firstKey() throws {
        let template = try Fixture.template(
            Entries.template(
                keys:
                    #"[{"kid": "k1", "secret": "\#(Fixture.secret32)"}, {"kid": "k2", "secret": "\#(Fixture.otherSecret64)"}]"#
            ))
        #expect(template.activeKid == "k1")
        #expect(try Fixture.issue(template).kid == "k1")
    }

    @Test("a preset's key ring rotates the same way, each kid playing the API key")
    func presetRing() throws {
        let template = try Fixture.template(
            """
            {"preset": "stream-chat", "activeKid": "key-b",
             "keys": [{"kid": "key-a", "secret": "\(Fixture.secret32)"}, {"kid": "key-b", "secret": "\(Fixture.otherSecret64)"}]}
            """)
        let vended = try Fixture.issue(template)
        #expect(vended.kid == "key-b")
        // Stream Chat tokens carry no kid; the verifier tries the only key it is given.
        let keys = try #require(template.keySet)
        let onlyB = try JWTKeySetFixture.only("key-b", of: keys)
        #expect(throws: Never.self) { try Fixture.verify(vended.token, keySet: onlyB) }
    }

    @Test("a LiveKit key ring puts the active kid in iss")
    func liveKitRing() throws {
        let template = try Fixture.template(
            """
            {"preset": "livekit", "serverURL": "wss://lk", "activeKid": "APIb",
             "keys": [{"kid": "APIa", "secret": "\(Fixture.secret32)"}, {"kid": "APIb", "secret": "\(Fixture.otherSecret64)"}]}
            """)
        let vended = try Fixture.issue(template, body: #"{"room_name": "r"}"#)
        #expect(try Fixture.segments(vended.token).payload.contains(#""iss":"APIb""#))
    }
}
