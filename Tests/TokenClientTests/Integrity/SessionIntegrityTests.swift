import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

/// `AuthSession` with an integrity provider: when it obtains, caches, attaches and renews `X-App-Integrity`.
@Suite("Session app integrity", .timeLimit(.minutes(1)))
struct SessionIntegrityTests {
    @Test("the value is kept until 60 s before it expires, then renewed")
    func renewalNearExpiry() async throws {
        let fixture = IntegrityFixture()
        fixture.server.configure { $0.tokenLifetime = 600 }
        try await fixture.signIn()
        fixture.clock.advance(by: 539)
        _ = try await fixture.session.me()
        #expect(fixture.server.integrityValues("/auth/me") == ["integrity-1"])
        fixture.clock.advance(by: 1)
        _ = try await fixture.session.me()
        #expect(fixture.server.integrityValues("/auth/me") == ["integrity-1", "integrity-2"])
        #expect(fixture.server.snapshot.tokensIssued == 2)
    }

    @Test("50 concurrent requests that need a new value share one exchange")
    func oneExchangeForManyCallers() async throws {
        let fixture = IntegrityFixture()
        try await fixture.signIn()
        fixture.clock.advance(by: 3600)
        let gate = fixture.server.gateChallenges()
        let succeeded = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 {
                group.addTask { try await fixture.session.me().sub == FakeAuthServer.user.id }
            }
            await gate.waitForArrivals(1)
            await gate.open()
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(succeeded == 50)
        #expect(fixture.exchanges == ["challenge", "apple/attest", "challenge", "apple/assert"])
        #expect(fixture.server.integrityValues("/auth/me").allSatisfy { $0 == "integrity-2" })
    }

    @Test(
        "a 401 integrity_required or integrity_invalid renews once and retries once, with no refresh",
        arguments: [ErrorCode.integrityRequired, .integrityInvalid])
    func renewOnRefusal(code: ErrorCode) async throws {
        let fixture = IntegrityFixture()
        try await fixture.signIn()
        fixture.server.configure {
            $0.refuseNext = 1
            $0.refuseWith = code
        }
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.server.integrityValues("/auth/me") == ["integrity-1", "integrity-2"])
        #expect(fixture.auth.count("/auth/refresh") == 0)
        #expect(fixture.auth.count("/auth/me") == 1)
    }

    @Test("a request still refused after the renewal throws .integrity(.rejected), never refreshes nor signs out")
    func stillRefused() async throws {
        let fixture = IntegrityFixture()
        try await fixture.signIn()
        fixture.server.configure { $0.refuseNext = 2 }
        let error = await #expect(throws: TokenClientError.self) { try await fixture.session.me() }
        guard case .integrity(.rejected(let body)) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(body?.error == .integrityInvalid)
        #expect(fixture.exchanges == ["challenge", "apple/attest", "challenge", "apple/assert"])
        #expect(fixture.auth.count("/auth/refresh") == 0)
        #expect(await fixture.session.state == .signedIn(FakeAuthServer.user))
        // The next request uses the renewed value and passes.
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
    }

    @Test("a refresh carries the value too, and a refusal of it does not sign out")
    func refreshCarriesIntegrity() async throws {
        let fixture = IntegrityFixture()
        try await fixture.signIn()
        fixture.clock.advance(by: 901)
        _ = try await fixture.session.me()
        #expect(fixture.server.integrityValues("/auth/refresh") == ["integrity-1"])
        fixture.auth.revokeAccessTokens()
        fixture.server.configure { $0.refuseNext = 2 }
        await #expect(throws: TokenClientError.self) { try await fixture.session.refresh() }
        #expect(await fixture.session.state == .signedIn(FakeAuthServer.user))
    }

    @Test("the vend providers' requests carry the value; /integrity/* requests never do")
    func vendCarriesIntegrity() async throws {
        let fixture = IntegrityFixture()
        fixture.auth.configure { $0.vendors["chat"] = FakeVendor(ttl: 600) }
        try await fixture.signIn()
        let chat = VendedTokenProvider(session: fixture.session, vendor: "chat")
        _ = try await chat.token()
        #expect(fixture.server.integrityValues("/vend/chat") == ["integrity-1"])
        let exchangeValues = fixture.server.snapshot.requests.filter { $0.path.hasPrefix("/integrity/") }
        #expect(!exchangeValues.isEmpty)
        #expect(exchangeValues.allSatisfy { $0.integrity == nil })
    }

    @Test("the debug provider sends debug:<secret> on every request and never calls /integrity/*")
    func debugProvider() async throws {
        let fixture = IntegrityFixture(provider: DebugIntegrityProvider(secret: "s3cret"))
        fixture.server.configure { $0.debugValues = ["debug:s3cret"] }
        try await fixture.signIn()
        fixture.clock.advance(by: 86_400 * 7)
        _ = try await fixture.session.me()
        #expect(fixture.exchanges.isEmpty)
        let values = fixture.server.snapshot.requests.map(\.integrity)
        #expect(values.count == 3)
        #expect(values.allSatisfy { $0 == "debug:s3cret" })
        let credential = try await DebugIntegrityProvider(secret: "x").integrityToken(
            using: IntegrityExchange(baseURL: SessionFixture.baseURL, transport: fixture.server))
        #expect(credential == IntegrityCredential(value: "debug:x", expiresAt: .distantFuture))
    }

    @Test("authorize(_:) adds X-App-Integrity for the server; handleRejection renews it after an AppIntegrity 401")
    func interceptorHalves() async throws {
        let fixture = IntegrityFixture()
        try await fixture.signIn()
        let request = fixture.session.makeRequest("GET", "auth/me")
        let authorized = try await fixture.session.authorize(request)
        #expect(authorized.value(forHTTPHeaderField: HeaderName.appIntegrity) == "integrity-1")
        #expect(authorized.value(forHTTPHeaderField: HeaderName.authorization) == "Bearer access-1")
        fixture.server.configure { $0.refuseNext = 1 }
        let (_, refused) = try await fixture.server.send(authorized)
        let retry = try #require(await fixture.session.handleRejection(of: authorized, response: refused))
        #expect(retry.value(forHTTPHeaderField: HeaderName.appIntegrity) == "integrity-2")
        #expect(retry.value(forHTTPHeaderField: HeaderName.authorization) == "Bearer access-1")
        #expect(fixture.auth.count("/auth/refresh") == 0)
    }

    @Test("a session without a provider sends no X-App-Integrity")
    func noProvider() async throws {
        let clock = TestClock()
        let auth = FakeAuthServer(clock: clock)
        let server = FakeIntegrityServer(inner: auth, clock: clock)
        let session = AuthSession(baseURL: SessionFixture.baseURL, transport: server, now: clock.closure)
        let error = await #expect(throws: TokenClientError.self) {
            try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
        }
        #expect(error?.code == .integrityRequired)
        #expect(server.integrityValues("/auth/login") == [nil])
    }
}
