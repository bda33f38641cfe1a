import DPoP
import Testing

@Suite struct DPoPTargetURITests {
    @Test(
        "normalises case, default ports, percent-encodings and dot segments, and drops query and fragment",
        arguments: [
            ("HTTPS://Example.COM:443/a/./b/../c", "https://example.com/a/c"),
            ("https://example.com", "https://example.com/"),
            ("https://example.com?x=1", "https://example.com/"),
            ("http://example.com:80/", "http://example.com/"),
            ("http://example.com:443/", "http://example.com:443/"),
            ("https://example.com:80/", "https://example.com:80/"),
            ("https://example.com:/x", "https://example.com/x"),
            ("https://example.com:08443/x", "https://example.com:8443/x"),
            ("https://example.com/%7euser/%41%2f%2a", "https://example.com/~user/A%2F%2A"),
            ("https://example.com/a%2fb", "https://example.com/a%2Fb"),
            ("https://example.com/a/b/..", "https://example.com/a/"),
            ("https://example.com/a/.", "https://example.com/a/"),
            ("https://example.com/../../x", "https://example.com/x"),
            ("https://example.com/a/%2E%2E/b", "https://example.com/b"),
            ("https://example.com/a//b/", "https://example.com/a//b/"),
            ("https://example.com/Path/CASE", "https://example.com/Path/CASE"),
            ("https://api.example.com/auth/refresh?x=1#top", "https://api.example.com/auth/refresh"),
            ("https://example.com/a#frag", "https://example.com/a"),
            ("http://[::1]:8080/x", "http://[::1]:8080/x"),
            ("http://[FE80::1]/", "http://[fe80::1]/"),
            ("http://127.0.0.1:80/auth", "http://127.0.0.1/auth"),
            ("https://ex%41mple.com/", "https://example.com/"),
        ])
    func normalises(input: String, expected: String) {
        #expect(DPoPTargetURI.normalized(input) == expected)
    }

    @Test(
        "refuses what is not an absolute http(s) URI with a host",
        arguments: [
            "/auth/login", "", "example.com/a", "ftp://example.com/", "https:/example.com/", "https:example.com",
            "https:///path", "https://:443/", "https://user@example.com/", "https://user:pw@example.com/",
            "https://example.com:99999/", "https://example.com:44a/", "https://example.com/a b",
            "https://example.com/%", "https://example.com/%4", "https://example.com/%zz", "https://example.com/?q=%g1",
            "https://example.com/\n", "https://example.com/\u{7F}", "https://exämple.com/", "https://example.com/#a#b",
            "https://[::1/", "https://[]/", "https://a]b/", "https://example.com/<x>",
        ])
    func refuses(input: String) {
        #expect(DPoPTargetURI.normalized(input) == nil)
    }

    @Test("normalisation is idempotent")
    func idempotent() throws {
        for input in ["HTTPS://Example.COM:443/a/./b/../c", "http://h/%7e/%2f/.."] {
            let once = try #require(DPoPTargetURI.normalized(input))
            #expect(DPoPTargetURI.normalized(once) == once)
        }
    }
}
