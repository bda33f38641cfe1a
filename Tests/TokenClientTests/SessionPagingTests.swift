import Testing

@testable import TokenClient
@testable import TokenClientCore

/// `AuthSession.sessions()` takes only the `cursor` of a `Link: <…>; rel="next"` and builds the next request on
/// its own base URL, so a link that names another host never receives the access token.
@Suite struct SessionPagingTests {
    @Test("the cursor of rel=next is taken, whatever host or path the link names")
    func cursorOnly() {
        #expect(AuthSession.nextCursor(#"</auth/sessions?limit=100&cursor=abc_-0>; rel="next""#) == "abc_-0")
        #expect(AuthSession.nextCursor(#"<https://evil.example/steal?cursor=xyz>; rel="next""#) == "xyz")
        #expect(AuthSession.nextCursor(#"<https://x/a>; rel="prev", </auth/sessions?cursor=n>; rel=next"#) == "n")
    }

    @Test("no Link, no rel=next, or no cursor in it ends the paging")
    func lastPage() {
        #expect(AuthSession.nextCursor(nil) == nil)
        #expect(AuthSession.nextCursor(#"</auth/sessions?cursor=a>; rel="prev""#) == nil)
        #expect(AuthSession.nextCursor(#"</auth/sessions?limit=5>; rel="next""#) == nil)
        #expect(AuthSession.nextCursor("garbage") == nil)
    }
}
