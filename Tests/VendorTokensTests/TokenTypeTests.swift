import Testing
import VendorTokens

/// A vendor token must never pass for one of tokenvend's access tokens (`typ: at+jwt`, RFC 9068): a template that
/// claims that type, in its header or its claims, stops startup (issue 30, item 9).
@Suite struct TokenTypeTests {
    static let cases: [StartupCase] = [
        StartupCase(
            "typ at+jwt in the header", Entries.template(extra: #""header": {"typ": "at+jwt"}"#), path: "header.typ",
            "access token"),
        StartupCase(
            "typ AT+JWT in the header", Entries.template(extra: #""header": {"typ": "AT+JWT"}"#), path: "header.typ",
            "access token"),
        StartupCase(
            "typ application/at+jwt in the header",
            Entries.template(extra: #""header": {"typ": "Application/At+JWT", "kid": "{{key.kid}}"}"#),
            path: "header.typ", "access token"),
        StartupCase(
            "typ at+jwt in the claims", Entries.template(claims: #"{"exp": "{{exp}}", "typ": "At+Jwt"}"#),
            path: "claims.typ", "access token"),
        StartupCase(
            "typ from a parameter",
            Entries.template(
                claims: #"{"exp": "{{exp}}", "typ": "{{param.t}}"}"#, parameters: #"{"t": {"type": "string"}}"#),
            path: "claims.typ", "must be literal"),
    ]

    @Test("a template claiming typ at+jwt (any case) stops startup, naming the member", arguments: cases)
    func refuses(_ startup: StartupCase) throws {
        let error = try Fixture.startupError(startup.entry)
        #expect(error.path == startup.path)
        #expect(error.reason.contains(startup.phrase), "\(error.reason)")
    }

    @Test("typ JWT, another literal type, or none is accepted, in the header and in the claims")
    func accepts() throws {
        let entries = [
            Entries.template(extra: #""header": {"typ": "JWT", "kid": "{{key.kid}}"}"#),
            Entries.template(extra: #""header": {"typ": "dpop+jwt"}"#),
            Entries.template(extra: #""header": {"kid": "{{key.kid}}"}"#),
            Entries.template(claims: #"{"exp": "{{exp}}", "typ": "Bearer"}"#),
            Entries.template(),
        ]
        for entry in entries {
            _ = try Fixture.template(entry)
        }
    }
}
