import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bearer goes only to `baseURL`'s origin and trusted hosts; requests elsewhere are sent unchanged and never
/// retried.
@Suite("Bearer origin", .timeLimit(.minutes(1)))
struct OriginAndChallengeTests {
    static let foreignBases = [
        "https://cdn.example.test/", "https://api.example.test:8443/", "http://api.example.test/",
        "https://example.test/", "https://api.example.test.evil.test/",
    ]

    @Test("a request to another host, port or scheme carries no Authorization", arguments: foreignBases)
    func foreignRequestCarriesNoBearer(base: String) async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        let (_, response) = try await fixture.session.send(try SessionFixture.request("auth/me", on: base))
        #expect(response.statusCode == 401)
        #expect(fixture.authorizations("/auth/me") == [nil])
        #expect(fixture.server.count("/auth/refresh") == 0)
    }

    @Test(
        "a foreign request's own 401 with the invalid_token challenge is returned as is, not retried",
        arguments: foreignBases)
    func foreignUnauthorizedNotRetried(base: String) async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        var request = try SessionFixture.request("auth/me", on: base)
        request.setValue("Bearer someone-elses", forHTTPHeaderField: "Authorization")
        let (_, response) = try await fixture.session.send(request)
        #expect(response.statusCode == 401)
        #expect(response.value(forHTTPHeaderField: "WWW-Authenticate")?.contains("invalid_token") == true)
        #expect(fixture.authorizations("/auth/me") == ["Bearer someone-elses"])
        #expect(fixture.server.count("/auth/refresh") == 0)
    }

    @Test("a host listed in trustedHosts gets the bearer and the refresh-and-retry")
    func trustedHostGetsBearer() async throws {
        let fixture = SessionFixture(trustedHosts: ["media.example.test"])
        try await fixture.signIn()
        let (_, first) = try await fixture.session.send(
            try SessionFixture.request("auth/me", on: "https://media.example.test/"))
        #expect(first.statusCode == 200)
        fixture.server.revokeAccessTokens()
        let (_, second) = try await fixture.session.send(
            try SessionFixture.request("auth/me", on: "https://media.example.test/"))
        #expect(second.statusCode == 200)
        #expect(fixture.authorizations("/auth/me") == ["Bearer access-1", "Bearer access-1", "Bearer access-2"])
        let (_, other) = try await fixture.session.send(
            try SessionFixture.request("auth/me", on: "https://cdn.example.test/"))
        #expect(other.statusCode == 401)
        #expect(fixture.authorizations("/auth/me").last == .some(nil))
    }

    @Test("the base URL's origin gets the bearer whatever the path")
    func baseOriginGetsBearer() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        let (_, response) = try await fixture.session.send(
            try SessionFixture.request("auth/me", on: "https://API.example.test:443/"))
        #expect(response.statusCode == 200)
        #expect(fixture.authorizations("/auth/me") == ["Bearer access-1"])
    }
}
