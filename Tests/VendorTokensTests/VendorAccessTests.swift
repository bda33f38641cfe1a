import StrictJSON
import Testing
import VendorTokens

/// `roles` and `requireVerifiedEmail` on every vendor entry, and the startup warning for LiveKit and Twilio
/// vendors that let anyone into any room.
@Suite struct VendorAccessTests {
    static let liveKit =
        #"{"preset": "livekit", "apiKey": "k", "apiSecret": "\#(Fixture.secret32)", "serverURL": "wss://lk""#
    static let twilio = #"{"preset": "twilio", \#(Entries.twilioSids), "apiKeySecret": "\#(Fixture.secret32)""#

    @Test("without roles or requireVerifiedEmail every signed-in caller may vend")
    func defaults() throws {
        let access = try VendorAccess(entry: Fixture.object(Entries.template()))
        #expect(access == .everyone)
        #expect(access.roles == nil && !access.requireVerifiedEmail)
        #expect(access.permits(role: "user", emailVerified: false))
        #expect(access.permits(role: "anything", emailVerified: false))
    }

    @Test("roles lists who may vend; a role outside it may not, whatever its email")
    func roles() throws {
        let entry = try Fixture.object(Entries.template(extra: #""roles": ["staff", "admin", "staff"]"#))
        let access = try VendorAccess(entry: entry)
        #expect(access.roles == ["staff", "admin"])
        #expect(access.permits(role: "staff", emailVerified: false))
        #expect(access.permits(role: "admin", emailVerified: true))
        #expect(!access.permits(role: "user", emailVerified: true))
        #expect(!access.permits(role: "Staff", emailVerified: true), "roles compare exactly")
        // The entry still parses into its template: the members are the entry's, not the template's.
        _ = try Fixture.template(Entries.template(extra: #""roles": ["staff"], "requireVerifiedEmail": true"#))
    }

    @Test("requireVerifiedEmail refuses a caller without a verified email, in every role")
    func verifiedEmail() throws {
        let entry = try Fixture.object(
            Self.liveKit + #", "roomsByRole": {"user": "^.*$"}, "roles": ["user"], "requireVerifiedEmail": true}"#)
        let access = try VendorAccess(entry: entry)
        #expect(access.permits(role: "user", emailVerified: true))
        #expect(!access.permits(role: "user", emailVerified: false))
        #expect(!access.permits(role: "admin", emailVerified: true))
        _ = try Fixture.template(
            Self.liveKit + #", "roomsByRole": {"user": "^.*$"}, "roles": ["user"], "requireVerifiedEmail": true}"#)
    }

    @Test("every preset takes roles and requireVerifiedEmail, moss included")
    func presets() throws {
        let moss = #"{"preset": "moss", "projectId": "p", "projectKey": "k", "roles": ["admin"]}"#
        guard case .moss = try Fixture.entry(moss) else {
            Issue.record("moss with roles is not a moss entry")
            return
        }
        #expect(try VendorAccess(entry: Fixture.object(moss)).roles == ["admin"])
        for preset in [
            #"{"preset": "stream-chat", "apiKey": "k", "apiSecret": "\#(Fixture.secret32)", "roles": ["a"]}"#,
            #"{"preset": "bloomreach-customer", "keyId": "k", "secret": "\#(Fixture.secret32)", "requireVerifiedEmail": false}"#,
        ] {
            _ = try Fixture.template(preset)
        }
    }

    @Test(
        "a livekit or twilio preset without roomsByRole opens every room; with it, or any other vendor, does not",
        arguments: [
            (liveKit + "}", true), (twilio + "}", true), (liveKit + #", "roomsByRole": null}"#, true),
            (liveKit + #", "roomsByRole": {"user": "^lobby$"}}"#, false),
            (twilio + #", "roomsByRole": {"user": "^lobby$"}}"#, false),
            (#"{"preset": "stream-chat", "apiKey": "k"}"#, false), (Entries.template(), false),
        ])
    func opensEveryRoom(entry: String, opens: Bool) throws {
        _ = try Fixture.entry(entry)
        #expect(VendorConfiguration.opensEveryRoom(try Fixture.object(entry)) == opens)
    }
}
