import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// TokenClient's `WebSignIn` against the real server and a fake OpenID Connect provider: the app's side of the
/// browser sign-in (authorization URL, callback URL, code exchange), the browser's redirects followed by hand.
@Suite("TokenClient web sign-in against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct WebSignInEndToEndTests {
    static let redirect = "com.example.app:/oauth"

    /// The browser: tokenvend's start, the provider's authorize, tokenvend's callback; returns the app's URL.
    static func browse(_ url: URL, server: TestServer) async throws -> URL {
        let start = try await NoRedirects.send("GET", url.absoluteString)
        #expect(start.status == 302)
        let authorize = try await NoRedirects.send("GET", try #require(start.headers["location"]))
        let callback = try #require(authorize.headers["location"])
        let path = String(callback.dropFirst("http://127.0.0.1:9".count))
        let back = try await NoRedirects.send("GET", "http://127.0.0.1:\(server.port)\(path)")
        #expect(back.status == 302)
        let location = try #require(back.headers["location"])
        return try #require(URL(string: location))
    }

    @Test("WebSignIn builds the URL, completeWebSignIn exchanges the code: created, then signed in again")
    func webSignIn() async throws {
        let provider = try FakeOIDCProvider()
        defer { Task { await provider.shutdown() } }
        let providers =
            #"{"fake":{"clientId":"\#(provider.clientID)","clientSecret":"fake-client-secret","#
            + #""discoveryURL":"\#(provider.discoveryURL)","algorithms":["ES256"],"redirectURIs":["\#(Self.redirect)"]}}"#
        try await withTestServer(environment: [
            "TOKENVEND_SERVER_PUBLIC_URL": "http://127.0.0.1:9", "TOKENVEND_IDENTITY_PROVIDERS": providers,
        ]) { live in
            let session = live.session(now: { Date() })
            let web = WebSignIn(baseURL: live.baseURL, provider: "fake", redirectURI: Self.redirect)
            let pending = web.start()
            let first = try await session.completeWebSignIn(
                pending, callbackURL: try await Self.browse(pending.authorizationURL, server: live))
            #expect(first.created)
            #expect(first.user.email == "fake-user@example.com")
            #expect(try await session.me().sub == first.user.id)

            let again = web.start()
            let callback = try await Self.browse(again.authorizationURL, server: live)
            // A callback for another pending sign-in is refused before anything is sent.
            await #expect(throws: WebSignInError.self) {
                try await session.completeWebSignIn(pending, callbackURL: callback)
            }
            let second = try await session.completeWebSignIn(again, callbackURL: callback)
            #expect(!second.created)
            #expect(second.user.id == first.user.id)
            // The code is used: presenting it again is refused by the server.
            await #expect(throws: TokenClientError.self) {
                try await session.completeWebSignIn(again, callbackURL: callback)
            }
        }
    }
}
