import IdentityProviders
import Testing

@testable import TokenService

@Suite struct FormParametersTests {
    @Test("names and values are percent-decoded, + is a space, empty pairs are skipped")
    func decodes() throws {
        let parameters = try FormParameters("redirect_uri=com.example.app%3A%2Fcb&state=a+b%20c&&flag&x=%C3%A9")
        #expect(parameters["redirect_uri"] == "com.example.app:/cb")
        #expect(parameters["state"] == "a b c")
        #expect(parameters["flag"] == "")
        #expect(parameters["x"] == "é")
        #expect(parameters.names == ["flag", "redirect_uri", "state", "x"])
        #expect(try FormParameters(nil).names.isEmpty)
        #expect(try FormParameters("").names.isEmpty)
    }

    @Test(
        "a duplicated parameter, a bad escape, non-UTF-8 bytes or a control character refuse the whole input",
        arguments: [
            ("state=a&state=b", FormParameters.Failure.duplicated("state")),
            ("state=a&st%61te=b", .duplicated("state")),
            ("code=%4", .malformedEscape),
            ("code=%zz", .malformedEscape),
            ("code=%FF", .notUTF8),
            ("code=a%0Ab", .controlCharacter),
            ("code=a%00", .controlCharacter),
        ])
    func refuses(input: String, failure: FormParameters.Failure) {
        #expect(throws: failure) { try FormParameters(input) }
    }

    @Test("more than 32 parameters are refused")
    func tooMany() {
        let input = (0..<33).map { "p\($0)=1" }.joined(separator: "&")
        #expect(throws: FormParameters.Failure.tooMany) { try FormParameters(input) }
    }

    @Test("encoding keeps only unreserved characters and round-trips through the parser")
    func encodes() throws {
        let value = "a b&c=d/é~._-+%"
        #expect(FormEncoding.percentEncode(value) == "a%20b%26c%3Dd%2F%C3%A9~._-%2B%25")
        let url = FormParameters.appending([("code", value), ("state", "s")], to: "com.example.app:/cb")
        #expect(url == "com.example.app:/cb?code=a%20b%26c%3Dd%2F%C3%A9~._-%2B%25&state=s")
        let query = try #require(url.split(separator: "?", maxSplits: 1).last)
        #expect(try FormParameters(String(query))["code"] == value)
        #expect(
            FormParameters.appending([("code", "c")], to: "https://app.example/cb?x=1")
                == "https://app.example/cb?x=1&code=c")
    }
}

@Suite struct RedirectURIMatchTests {
    @Test("a redirect URI matches a registered one exactly, as a string")
    func exact() {
        let registered = ["com.example.app:/oauth", "https://app.example.com/cb"]
        #expect(RedirectURIMatch.isRegistered("com.example.app:/oauth", in: registered))
        #expect(RedirectURIMatch.isRegistered("https://app.example.com/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("https://app.example.com/cb/", in: registered))
        #expect(!RedirectURIMatch.isRegistered("https://APP.example.com/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("https://app.example.com/cb?x=1", in: registered))
        #expect(!RedirectURIMatch.isRegistered("https://app.example.com:443/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("com.example.app:/oauth2", in: registered))
    }

    @Test("a loopback entry matches any port, but the same host, path and query (RFC 8252 §7.3)")
    func loopback() {
        let registered = ["http://127.0.0.1/cb", "http://[::1]:8080/done"]
        #expect(RedirectURIMatch.isRegistered("http://127.0.0.1:49152/cb", in: registered))
        #expect(RedirectURIMatch.isRegistered("http://127.0.0.1/cb", in: registered))
        #expect(RedirectURIMatch.isRegistered("http://[::1]:1/done", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://127.0.0.1:49152/other", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://127.0.0.1:49152/cb?x", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://127.0.0.1:49152@evil.example/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://127.0.0.1.evil.example/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://localhost:49152/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://127.0.0.1:123456/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://[::1]:9/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://127.0.0.1:0/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://127.0.0.1:65536/cb", in: registered))
        #expect(RedirectURIMatch.isRegistered("http://127.0.0.1:65535/cb", in: registered))
    }

    @Test("the match is byte for byte: a canonically equivalent character (U+212A for K) does not match")
    func bytesNotCanonicalEquivalence() {
        let registered = ["com.Kx.app:/cb", "http://127.0.0.1/K"]
        #expect("com.\u{212A}x.app:/cb" == "com.Kx.app:/cb")  // what Swift's == would have let through
        #expect(!RedirectURIMatch.isRegistered("com.\u{212A}x.app:/cb", in: registered))
        #expect(!RedirectURIMatch.isRegistered("http://127.0.0.1:5000/\u{212A}", in: registered))
        #expect(RedirectURIMatch.isRegistered("com.Kx.app:/cb", in: registered))
        #expect(!RedirectURIMatch.sameBytes("\u{212A}", "K"))
    }
}

@Suite struct LocationHeaderTests {
    @Test("only visible ASCII may stand in a Location header: no control byte, space or non-ASCII")
    func headerSafeURL() {
        #expect(AuthService.isHeaderSafeURL("https://idp.example/authorize?a=b%20c"))
        for bad in [
            "", "https://idp.example/a\r\nSet-Cookie: x=y", "https://idp.example/a b", "https://idp.example/\u{7F}",
            "https://idp.example/é", "https://idp.example/\u{0}",
        ] {
            #expect(!AuthService.isHeaderSafeURL(bad), "\(bad.debugDescription)")
        }
    }
}
