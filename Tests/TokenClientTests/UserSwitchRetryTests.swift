import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The retry after a 401 is never sent as another user, and a body that was a stream is never replayed.
@Suite("Retry after a 401", .timeLimit(.minutes(1)))
struct UserSwitchRetryTests {
    @Test("a login as another user between the first send and the retry: the retry is not sent with their token")
    func noRetryAsAnotherUser() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.server.revokeAccessTokens()
        let gate = fixture.server.gate("/auth/me")
        let first = Task { try await fixture.session.me() }
        await gate.waitForArrivals(1)
        try await fixture.signIn(as: FakeAuthServer.otherUser.email ?? "")
        await gate.open()

        let error = await #expect(throws: TokenClientError.self) { try await first.value }
        #expect(error?.code == .invalidToken)
        if case .server(let status, _) = error { #expect(status == 401) }
        #expect(fixture.authorizations("/auth/me") == ["Bearer access-1"])
        #expect(fixture.session.snapshot.user == FakeAuthServer.otherUser)
        #expect(try await fixture.session.me().sub == FakeAuthServer.otherUser.id)
    }

    @Test("a request whose body is a stream is not replayed after a 401")
    func streamBodyNotReplayed() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.server.revokeAccessTokens()
        var request = try SessionFixture.request("stream-token")
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Data("{}".utf8))

        let error = await #expect(throws: TokenClientError.self) { try await fixture.session.send(request) }
        #expect(error?.code == .invalidToken)
        let sent = fixture.server.requests.filter { $0.path == "/stream-token" }
        #expect(sent.count == 1)
        #expect(sent.first?.hasBodyStream == true)
        #expect(await fixture.session.state.isSignedIn)
    }

    @Test("a request with a data body is replayed once after a 401, with the same body")
    func dataBodyReplayed() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.server.revokeAccessTokens()
        var request = try SessionFixture.request("stream-token")
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"customerIds":{"registered":"ada@example.com"}}"#.utf8)

        let (_, response) = try await fixture.session.send(request)
        #expect(response.statusCode == 200)
        let sent = fixture.server.requests.filter { $0.path == "/stream-token" }
        #expect(sent.map(\.authorization) == ["Bearer access-1", "Bearer access-2"])
        #expect(Set(sent.map(\.body)) == [request.httpBody])
    }
}
