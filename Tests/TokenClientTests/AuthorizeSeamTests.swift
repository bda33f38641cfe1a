import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `authorize` and `handleRejection`: the seams for Moya, Alamofire or a custom transport.
@Suite("authorize and handleRejection", .timeLimit(.minutes(1)))
struct AuthorizeSeamTests {
    static let invalidToken = #"Bearer realm="tokenvend", error="invalid_token""#

    static func unauthorized(_ request: URLRequest, challenge: String?) throws -> HTTPURLResponse {
        let url = try #require(request.url)
        let headers = challenge.map { ["WWW-Authenticate": $0] } ?? [:]
        return try #require(HTTPURLResponse(url: url, statusCode: 401, httpVersion: "HTTP/1.1", headerFields: headers))
    }

    @Test("authorize adds the bearer for the base origin and trusted hosts, and leaves other requests unchanged")
    func authorizeOnlyTrusted() async throws {
        let fixture = SessionFixture(trustedHosts: ["media.example.test"])
        try await fixture.signIn()
        let own = try await fixture.session.authorize(try SessionFixture.request("vend/chat"))
        #expect(own.value(forHTTPHeaderField: "Authorization") == "Bearer access-1")
        let trusted = try await fixture.session.authorize(
            try SessionFixture.request("x", on: "https://media.example.test/"))
        #expect(trusted.value(forHTTPHeaderField: "Authorization") == "Bearer access-1")
        for base in OriginAndChallengeTests.foreignBases {
            let foreign = try SessionFixture.request("x", on: base)
            #expect(try await fixture.session.authorize(foreign) == foreign)
        }
        #expect(fixture.server.requests.count == 1)
    }

    @Test("authorize refreshes a token known to have expired, once for many callers")
    func authorizeRefreshesExpired() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.clock.advance(by: 901)
        let request = try SessionFixture.request("auth/me")
        try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await fixture.session.authorize(request).value(forHTTPHeaderField: "Authorization")
                }
            }
            for try await header in group { #expect(header == "Bearer access-2") }
        }
        #expect(fixture.server.count("/auth/refresh") == 1)
    }

    @Test("authorize without a session throws signedOut")
    func authorizeSignedOut() async throws {
        let fixture = SessionFixture()
        await #expect(throws: TokenClientError.signedOut) {
            try await fixture.session.authorize(try SessionFixture.request("auth/me"))
        }
    }

    @Test("handleRejection of a 401 with the invalid_token challenge returns the request with a new token")
    func rejectionWithChallengeReauthorizes() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        let sent = try await fixture.session.authorize(try SessionFixture.request("auth/me"))
        fixture.server.revokeAccessTokens()
        let retry = try await fixture.session.handleRejection(
            of: sent, response: try Self.unauthorized(sent, challenge: Self.invalidToken))
        let renewed = try #require(retry)
        #expect(renewed.value(forHTTPHeaderField: "Authorization") == "Bearer access-2")
        #expect(renewed.url == sent.url)
        #expect(fixture.server.count("/auth/refresh") == 1)
        let (_, response) = try await fixture.server.send(try TransportRequest(renewed))
        #expect(response.statusCode == 200)
    }

    @Test("handleRejection of a 401 without the invalid_token challenge is nil, and nothing is refreshed")
    func rejectionWithoutChallengeIsNil() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        let sent = try await fixture.session.authorize(try SessionFixture.request("auth/me"))
        for challenge in [nil, #"Bearer realm="tokenvend""#, #"Basic realm="proxy""#] {
            let retry = try await fixture.session.handleRejection(
                of: sent, response: try Self.unauthorized(sent, challenge: challenge))
            #expect(retry == nil)
        }
        #expect(fixture.server.count("/auth/refresh") == 0)
    }

    @Test("handleRejection for a foreign host is nil, even with the invalid_token challenge")
    func rejectionForeignIsNil() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        var sent = try SessionFixture.request("auth/me", on: "https://cdn.example.test/")
        sent.setValue("Bearer access-1", forHTTPHeaderField: "Authorization")
        let retry = try await fixture.session.handleRejection(
            of: sent, response: try Self.unauthorized(sent, challenge: Self.invalidToken))
        #expect(retry == nil)
        #expect(fixture.server.count("/auth/refresh") == 0)
    }

    @Test("handleRejection of a request whose body was a stream is nil")
    func rejectionStreamBodyIsNil() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        var sent = try await fixture.session.authorize(try SessionFixture.request("stream-token"))
        sent.httpMethod = "POST"
        sent.httpBodyStream = InputStream(data: Data("{}".utf8))
        let retry = try await fixture.session.handleRejection(
            of: sent, response: try Self.unauthorized(sent, challenge: Self.invalidToken))
        #expect(retry == nil)
    }
}
