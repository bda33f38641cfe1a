import LoopbackHost
import OutboundHTTP
import Testing

/// The one URL rule: https anywhere, http only to a loopback host, parsed strictly.
@Suite struct OutboundURLTests {
    @Test(
        "https goes anywhere; http only to localhost, 127.0.0.0/8 or [::1]; hostile spellings are refused",
        arguments: [
            // Accepted.
            ("https://auth.example.com/jwks", true), ("HTTPS://Auth.Example.COM/jwks", true),
            ("https://auth.example.com", true), ("https://auth.example.com?x=1", true),
            ("https://auth.example.com./keys", true), ("https://[2001:db8::1]:8443/x", true),
            ("https://93.184.216.34/x", true), ("https://auth.example.com:443/x", true),
            ("http://127.0.0.1:8080/x", true), ("http://127.255.3.4/x", true), ("http://localhost/x", true),
            ("HTTP://LOCALHOST:9/x", true), ("http://[::1]:8080/x", true), ("http://[0::1]/x", true),
            ("http://127.0.0.1:65535/x", true), ("http://localhost:9/jwks.json", true),
            // Refused: http off loopback, lookalike names, other loopback spellings.
            ("http://auth.example.com/x", false), ("http://127.0.0.1.evil.com/x", false),
            ("http://127.evil.example/x", false), ("http://localhost.evil.example/x", false),
            ("http://evil.localhost/x", false), ("http://localhost./x", false), ("http://127.0.0.1./x", false),
            ("http://[::ffff:127.0.0.1]/x", false), ("http://[::2]/x", false), ("http://128.0.0.1/x", false),
            ("http://127.1/x", false), ("http://0x7f.0.0.1/x", false), ("http://2130706433/x", false),
            ("http://0.0.0.0/x", false), ("http://[::]/x", false), ("http://::1/x", false),
            // Refused: user info, fragments, bad ports, empty hosts, other schemes, odd bytes.
            ("https://user:pass@auth.example.com/x", false), ("https://user@auth.example.com/x", false),
            ("http://evil.com@127.0.0.1/x", false), ("http://127.0.0.1@evil.com/x", false),
            ("https://auth.example.com/x#frag", false), ("http://127.0.0.1:/x", false),
            ("http://127.0.0.1:0/x", false), ("http://127.0.0.1:65536/x", false), ("http://127.0.0.1:8a/x", false),
            ("http://127.0.0.1:+80/x", false), ("https:///x", false), ("https://", false), ("http://:80/x", false),
            ("https://[::1/x", false), ("https://[::1]x/x", false), ("https://[fe80::1%25eth0]/x", false),
            ("ftp://127.0.0.1/x", false), ("file:///etc/passwd", false), ("https:auth.example.com", false),
            ("//auth.example.com/x", false), ("", false), ("https://auth example.com/x", false),
            ("https://auth.example.com/a b", false), ("https://auth.example.com\\@evil.com/x", false),
            ("https://auth.example.com/\r\nX: 1", false), ("https://xn--bcher-kva.example/x", true),
            ("https://bücher.example/x", false), ("https://auth%2eexample.com/x", false),
            ("https://auth..example.com/x", false), ("https://.example.com/x", false),
        ])
    func rule(text: String, accepted: Bool) {
        #expect(OutboundURL.accepts(text) == accepted)
        #expect(((try? OutboundURL(text)) != nil) == accepted)
    }

    @Test("plainHTTPAnywhere also lets http go to any host, and refuses everything else the same way")
    func plainHTTPAnywhere() {
        #expect(OutboundURL.accepts("http://auth.example.com/x", rule: .plainHTTPAnywhere))
        #expect(OutboundURL.accepts("http://tokenvend:8080/healthz", rule: .plainHTTPAnywhere))
        #expect(!OutboundURL.accepts("http://user@auth.example.com/x", rule: .plainHTTPAnywhere))
        #expect(!OutboundURL.accepts("ftp://auth.example.com/x", rule: .plainHTTPAnywhere))
    }

    @Test("the URL given to libcurl is rebuilt from the parsed parts, scheme and host in lower case")
    func rebuilt() throws {
        #expect(
            try OutboundURL("HTTPS://Auth.Example.COM:8443/Path?Q=A").text == "https://auth.example.com:8443/Path?Q=A")
        #expect(try OutboundURL("https://auth.example.com").text == "https://auth.example.com/")
        #expect(try OutboundURL("https://auth.example.com?x").text == "https://auth.example.com/?x")
        #expect(try OutboundURL("http://[0::1]:80/x").text == "http://[0::1]:80/x")
        let url = try OutboundURL("http://[::1]:80/x")
        #expect(url.host == "::1" && url.port == 80 && url.isLoopback && url.scheme == .http)
        #expect(throws: OutboundHTTPError.refusedURL) { try OutboundURL("http://example.com/") }
    }

    @Test(
        "loopback hosts are localhost exactly, dotted quads in 127.0.0.0/8 and ::1",
        arguments: [
            ("localhost", true), ("LocalHost", true), ("127.0.0.1", true), ("127.9.8.7", true), ("::1", true),
            ("0::0:1", true), ("localhost.", false), ("localhost.localdomain", false), ("127.1", false),
            ("0x7f.0.0.1", false), ("2130706433", false), ("127.0.0.1 ", false), ("", false), ("::", false),
            ("::ffff:127.0.0.1", false), ("[::1]", false), ("126.255.255.255", false), ("fe80::1", false),
        ])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(LoopbackHost.contains(host) == loopback)
    }
}
