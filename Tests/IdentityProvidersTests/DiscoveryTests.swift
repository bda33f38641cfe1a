import Foundation
import IdentityProviders
import IdentityProvidersTesting
import Testing

@Suite struct OIDCDiscoveryDocumentTests {
    static func parse(
        _ text: String, issuer: String = DiscoveryFixtures.googleIssuer, url: String? = DiscoveryFixtures.googleURL
    ) -> Result<OIDCDiscoveryDocument, DiscoveryError> {
        do throws(DiscoveryError) {
            return .success(
                try OIDCDiscoveryDocument.parse(Array(text.utf8), expectedIssuer: issuer, discoveryURL: url))
        } catch {
            return .failure(error)
        }
    }

    @Test("Google's discovery document gives its endpoints; unknown members are ignored")
    func google() throws {
        let document = try Self.parse(DiscoveryFixtures.google).get()
        #expect(
            document
                == OIDCDiscoveryDocument(
                    issuer: "https://accounts.google.com",
                    authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
                    tokenEndpoint: "https://oauth2.googleapis.com/token",
                    userInfoEndpoint: "https://openidconnect.googleapis.com/v1/userinfo",
                    jwksURI: "https://www.googleapis.com/oauth2/v3/certs", idTokenSigningAlgorithms: ["RS256"]))
    }

    @Test("GitLab's discovery document gives its endpoints")
    func gitlab() throws {
        let document = try Self.parse(DiscoveryFixtures.gitlab, issuer: DiscoveryFixtures.gitlabIssuer).get()
        #expect(document.authorizationEndpoint == "https://gitlab.com/oauth/authorize")
        #expect(document.tokenEndpoint == "https://gitlab.com/oauth/token")
        #expect(document.userInfoEndpoint == "https://gitlab.com/oauth/userinfo")
        #expect(document.jwksURI == "https://gitlab.com/oauth/discovery/keys")
    }

    @Test("an issuer other than the expected one is refused, even a trailing slash or case difference")
    func issuerMismatch() {
        #expect(
            Self.parse(DiscoveryFixtures.google, issuer: "https://accounts.google.com/") == .failure(.issuerMismatch))
        #expect(
            Self.parse(DiscoveryFixtures.google, issuer: "https://Accounts.google.com") == .failure(.issuerMismatch))
        #expect(Self.parse(DiscoveryFixtures.gitlab) == .failure(.issuerMismatch))
    }

    @Test("an http endpoint to a non-loopback host is refused")
    func insecureEndpoint() throws {
        let http = DiscoveryFixtures.google(replacing: "token_endpoint", with: #""http://oauth2.googleapis.com/token""#)
        #expect(Self.parse(http) == .failure(.insecureEndpoint("token_endpoint")))
        let jwks = DiscoveryFixtures.google(replacing: "jwks_uri", with: #""ftp://www.googleapis.com/certs""#)
        #expect(Self.parse(jwks) == .failure(.insecureEndpoint("jwks_uri")))
    }

    @Test(
        "http to loopback from a remote provider's document is refused, for every endpoint",
        arguments: ["token_endpoint", "authorization_endpoint", "userinfo_endpoint", "jwks_uri"])
    func loopbackFromRemoteDocument(member: String) throws {
        for target in ["http://127.0.0.1:8080/x", "http://localhost/x", "http://[::1]:9000/x"] {
            let document = DiscoveryFixtures.google(replacing: member, with: "\"\(target)\"")
            #expect(Self.parse(document) == .failure(.insecureEndpoint(member)), "\(target)")
            #expect(Self.parse(document, url: nil) == .failure(.insecureEndpoint(member)), "\(target)")
        }
        // https to the same hosts is not "plain http": the TLS certificate must still match.
        let https = DiscoveryFixtures.google(replacing: member, with: #""https://localhost/x""#)
        #expect((try? Self.parse(https).get()) != nil)
    }

    @Test("http to loopback is accepted when the configured discovery URL or the issuer is itself on loopback")
    func loopbackFromLocalProvider() throws {
        let local = "http://127.0.0.1:9000"
        let document = DiscoveryFixtures.google
            .replacingOccurrences(of: "https://accounts.google.com", with: local)
            .replacingOccurrences(of: "https://oauth2.googleapis.com", with: local)
            .replacingOccurrences(of: "https://openidconnect.googleapis.com", with: local)
            .replacingOccurrences(of: "https://www.googleapis.com", with: local)
        #expect(
            (try Self.parse(document, issuer: local, url: local + "/.well-known/openid-configuration").get())
                .tokenEndpoint == local + "/token")
        #expect((try Self.parse(document, issuer: local, url: nil).get()).jwksURI == local + "/oauth2/v3/certs")
        // A remote issuer whose document the configuration fetches from loopback (a local mirror, a test).
        let mirrored = DiscoveryFixtures.google(replacing: "token_endpoint", with: #""http://127.0.0.1:8080/token""#)
        #expect(
            (try Self.parse(mirrored, url: "http://localhost:8080/.well-known/openid-configuration").get())
                .tokenEndpoint == "http://127.0.0.1:8080/token")
    }

    @Test("a missing token_endpoint (or issuer, authorization_endpoint, jwks_uri) is refused")
    func missingMembers() {
        for name in ["token_endpoint", "issuer", "authorization_endpoint", "jwks_uri"] {
            #expect(Self.parse(DiscoveryFixtures.google(replacing: name, with: nil)) == .failure(.missingMember(name)))
        }
        #expect(
            Self.parse(DiscoveryFixtures.google(replacing: "userinfo_endpoint", with: nil)).map(\.userInfoEndpoint)
                == .success(nil))
        #expect(
            Self.parse(DiscoveryFixtures.google(replacing: "token_endpoint", with: "42"))
                == .failure(.malformed("token_endpoint is not a string")))
        #expect(Self.parse("[]") == .failure(.malformed("not a JSON object")))
    }
}

@Suite struct DiscoveryCacheTests {
    let client = FakeOAuthHTTPClient()
    let clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000))
    let cache: DiscoveryCache

    init() {
        cache = DiscoveryCache(client: client, clock: clock.closure)
    }

    func document() async -> Result<OIDCDiscoveryDocument, BrowserSignInFailure> {
        do throws(BrowserSignInFailure) {
            return .success(
                try await cache.document(url: DiscoveryFixtures.googleURL, issuer: DiscoveryFixtures.googleIssuer))
        } catch {
            return .failure(error)
        }
    }

    func serveGoogle(cacheControl: String? = nil) {
        client.serve(DiscoveryFixtures.googleURL, json: DiscoveryFixtures.google, cacheControl: cacheControl)
    }

    @Test("concurrent callers share one fetch")
    func singleFlight() async throws {
        serveGoogle()
        client.hold()
        let callers = 20
        try await withThrowingTaskGroup(of: OIDCDiscoveryDocument.self) { group in
            for _ in 0..<callers { group.addTask { try await self.document().get() } }
            while cache.waitingCallers(url: DiscoveryFixtures.googleURL, issuer: DiscoveryFixtures.googleIssuer)
                < callers
            {
                await Task.yield()
            }
            client.release()
            var count = 0
            for try await document in group {
                #expect(document.issuer == DiscoveryFixtures.googleIssuer)
                count += 1
            }
            #expect(count == callers)
        }
        #expect(client.requests.count == 1)
    }

    @Test("a document is kept for its max-age clamped to 5 minutes–24 hours, 1 hour without one")
    func maxAgeClamped() async throws {
        for (cacheControl, lifetime) in [("max-age=10", 300), ("max-age=999999", 86_400), (nil, 3_600)]
            as [(String?, Int)]
        {
            let client = FakeOAuthHTTPClient()
            let clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000))
            let cache = DiscoveryCache(client: client, clock: clock.closure)
            client.serve(DiscoveryFixtures.googleURL, json: DiscoveryFixtures.google, cacheControl: cacheControl)
            let fetch = { () async throws -> OIDCDiscoveryDocument in
                try await cache.document(url: DiscoveryFixtures.googleURL, issuer: DiscoveryFixtures.googleIssuer)
            }
            _ = try await fetch()
            clock.advance(TimeInterval(lifetime - 1))
            _ = try await fetch()
            #expect(client.requests.count == 1, "\(String(describing: cacheControl))")
            clock.advance(2)
            _ = try await fetch()
            #expect(client.requests.count == 2, "\(String(describing: cacheControl))")
        }
    }

    @Test("a stale document serves up to an hour past expiry while the provider is down, then not")
    func staleWhileDown() async throws {
        serveGoogle(cacheControl: "max-age=300")
        _ = try await document().get()
        client.fail(DiscoveryFixtures.googleURL)
        clock.advance(301)
        #expect((try? await document().get())?.issuer == DiscoveryFixtures.googleIssuer)
        #expect(client.requests.count == 2)
        clock.advance(3_600 - 2)
        #expect((try? await document().get())?.issuer == DiscoveryFixtures.googleIssuer)
        clock.advance(2)
        guard case .failure(.providerUnavailable(let retryAfter)) = await document() else {
            Issue.record("expected providerUnavailable past the stale grace")
            return
        }
        #expect((1...60).contains(retryAfter))
    }

    @Test("cold and down answers .providerUnavailable, and retries only after a minute")
    func coldAndDown() async {
        client.fail(DiscoveryFixtures.googleURL)
        #expect(await document() == .failure(.providerUnavailable(retryAfter: 60)))
        clock.advance(20)
        #expect(await document() == .failure(.providerUnavailable(retryAfter: 40)))
        #expect(client.requests.count == 1)
        serveGoogle()
        clock.advance(40)
        #expect((try? await document().get())?.issuer == DiscoveryFixtures.googleIssuer)
    }

    @Test("a document with the wrong issuer or a 404 counts as a failed fetch")
    func refusedDocuments() async {
        client.serve(DiscoveryFixtures.googleURL, json: DiscoveryFixtures.gitlab)
        #expect(await document() == .failure(.providerUnavailable(retryAfter: 60)))
        clock.advance(60)
        client.serve(DiscoveryFixtures.googleURL, status: 404, json: "{}")
        #expect(await document() == .failure(.providerUnavailable(retryAfter: 60)))
    }
}
