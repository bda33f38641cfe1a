import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

/// `AuthSession(…, dpop:)` against the fake server: binding, proofs on every request, nonces, the key's life.
@Suite("DPoP-bound sessions", .timeLimit(.minutes(1)))
struct DPoPSessionTests {
    @Test(
        "a sign-in with a proof binds the session; requests then carry Authorization: DPoP and a proof with ath",
        arguments: [DPoPAlgorithm.es256, .edDSA])
    func bindsAndPresents(algorithm: DPoPAlgorithm) async throws {
        let fixture = DPoPFixture(kind: algorithm == .es256 ? .softwareP256 : .softwareEd25519)
        try await fixture.signIn()
        let tokens = try #require(try fixture.tokens.load())
        #expect(tokens.tokenType == "DPoP" && tokens.isDPoPBound)
        #expect(fixture.session.snapshot.tokenType == "DPoP")
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(fixture.server.requests.map(\.authorization) == [nil, "DPoP access-1"])
        let login = try #require(fixture.server.proofs("/auth/login").first)
        let me = try #require(fixture.server.proofs("/auth/me").first)
        #expect(login.ath == nil && login.htm == "POST" && login.htu == "https://api.example.test/auth/login")
        #expect(me.htm == "GET" && me.htu == "https://api.example.test/auth/me" && me.ath != nil)
        #expect(login.alg == algorithm.rawValue && login.typ == "dpop+jwt" && login.jwk["d"] == nil)
        let stored = try fixture.storedKeyX()
        #expect(login.keyX == me.keyX && login.keyX == stored)
        #expect(login.jti != me.jti)
    }

    @Test("a server that does not bind answers Bearer: the token goes as Bearer, still with a proof")
    func unboundSession() async throws {
        let fixture = DPoPFixture()
        fixture.server.configure { $0.dpop.binds = false }
        try await fixture.signIn()
        #expect(try fixture.tokens.load()?.tokenType == "Bearer")
        _ = try await fixture.session.me()
        #expect(fixture.server.requests.last?.authorization == "Bearer access-1")
        #expect(fixture.server.proofs("/auth/me").count == 1)
    }

    @Test("use_dpop_nonce at a token endpoint (400) is answered by one retry with the nonce, kept for later requests")
    func nonceAtTokenEndpoint() async throws {
        let fixture = DPoPFixture()
        fixture.server.configure { $0.dpop.nonceChallenges = 1 }
        try await fixture.signIn()
        #expect(fixture.server.count("/auth/login") == 2)
        #expect(fixture.server.proofs("/auth/login").map(\.nonce) == [nil, "server-nonce-1"])
        _ = try await fixture.session.me()
        #expect(fixture.server.proofs("/auth/me").map(\.nonce) == ["server-nonce-1"])
    }

    @Test("use_dpop_nonce on a resource route (401, DPoP challenge) retries once without a refresh; a second is final")
    func nonceAtResource() async throws {
        let fixture = DPoPFixture()
        try await fixture.signIn()
        fixture.server.configure { $0.dpop.nonceChallenges = 1 }
        _ = try await fixture.session.me()
        #expect(fixture.server.count("/auth/me") == 2)
        #expect(fixture.server.count("/auth/refresh") == 0)
        fixture.server.configure {
            $0.dpop.nonceChallenges = 2
            $0.dpop.nonce = "server-nonce-2"
        }
        let error = await #expect(throws: TokenClientError.self) { _ = try await fixture.session.me() }
        #expect(error?.code == .useDPoPNonce)
        let nonces = fixture.server.proofs("/auth/me").map(\.nonce)
        #expect(nonces == [nil, "server-nonce-1", "server-nonce-1", "server-nonce-2"])
        #expect(fixture.server.count("/auth/me") == 4)
        #expect(fixture.server.count("/auth/refresh") == 0)
        #expect(fixture.session.snapshot.state == .signedIn(FakeAuthServer.user))
    }

    @Test("a DPoP-Nonce on any answer goes into the next proof to that server")
    func advertisedNonce() async throws {
        let fixture = DPoPFixture()
        fixture.server.configure { $0.dpop.advertisedNonce = "from-login" }
        try await fixture.signIn()
        _ = try await fixture.session.me()
        #expect(fixture.server.proofs.map(\.nonce) == [nil, "from-login"])
    }

    @Test("the key survives a restart: a new session over the same stores refreshes the bound session with it")
    func keySurvivesRestart() async throws {
        let fixture = DPoPFixture()
        try await fixture.signIn()
        let keyX = try #require(try fixture.storedKeyX())
        let relaunched = fixture.restarted()
        try await relaunched.session.refresh()
        #expect(try relaunched.tokens.load()?.refreshToken == "refresh-2")
        #expect(try relaunched.tokens.load()?.tokenType == "DPoP")
        #expect(fixture.server.proofs("/auth/refresh").map(\.keyX) == [keyX])
        _ = try await relaunched.session.me()
        #expect(fixture.server.requests.last?.authorization == "DPoP access-2")
    }

    @Test("a session that lost its key gets invalid_grant at refresh, signs out and deletes the new key")
    func lostKey() async throws {
        let fixture = DPoPFixture()
        try await fixture.signIn()
        try fixture.keys.deleteKey()
        let relaunched = fixture.restarted()
        await #expect(throws: TokenClientError.signedOut) { try await relaunched.session.refresh() }
        #expect(try fixture.keys.loadKey() == nil)
        #expect(try fixture.tokens.load() == nil)
    }

    @Test("logout is signed with the key, which is then deleted; the next sign-in makes a new key")
    func logoutDeletesKey() async throws {
        let fixture = DPoPFixture()
        try await fixture.signIn()
        let keyX = try #require(try fixture.storedKeyX())
        try await fixture.session.logout()
        #expect(try fixture.keys.loadKey() == nil)
        let logout = try #require(fixture.server.requests.last)
        #expect(logout.path == "/auth/logout" && logout.authorization == "DPoP access-1")
        #expect(fixture.server.proofs("/auth/logout").map(\.keyX) == [keyX])
        #expect(fixture.server.proofs("/auth/logout").first?.ath != nil)
        try await fixture.signIn()
        #expect(try fixture.storedKeyX() != keyX)
        #expect(fixture.server.proofs("/auth/login").last?.keyX != keyX)
    }

    @Test("a refused refresh signs out and deletes the key")
    func refusedRefreshDeletesKey() async throws {
        let fixture = DPoPFixture()
        try await fixture.signIn()
        fixture.server.configure { $0.refreshFailure = (401, .invalidGrant) }
        await #expect(throws: TokenClientError.signedOut) { try await fixture.session.refresh() }
        #expect(try fixture.keys.loadKey() == nil)
    }

    @Test("a 401 with WWW-Authenticate: DPoP error=\"invalid_token\" refreshes once and retries with a new proof")
    func dpopInvalidToken() async throws {
        let server = FakeAuthServer()
        let fixture = DPoPFixture(server: server, transport: DPoPChallengeTransport(base: server))
        try await fixture.signIn()
        server.revokeAccessTokens()
        #expect(try await fixture.session.me().sub == FakeAuthServer.user.id)
        #expect(server.requests.map(\.path) == ["/auth/login", "/auth/me", "/auth/refresh", "/auth/me"])
        #expect(server.requests.last?.authorization == "DPoP access-2")
        #expect(Set(server.proofs.compactMap(\.jti)).count == 4)
    }

    @Test("authorize adds a proof; handleRejection answers a nonce challenge with a new proof carrying the nonce")
    func interceptor() async throws {
        let fixture = DPoPFixture()
        try await fixture.signIn()
        let url = DPoPFixture.baseURL.appending(path: "api/orders")
        let authorized = try await fixture.session.authorize(TransportRequest(url: url))
        #expect(authorized.value(forHTTPHeaderField: "Authorization") == "DPoP access-1")
        let proof = try #require(
            authorized.value(forHTTPHeaderField: "DPoP").flatMap {
                FakeAuthServer.decodeProof($0, path: "/api/orders")
            })
        #expect(proof.htu == url.absoluteString && proof.ath != nil && proof.nonce == nil)
        let challenge = TransportResponse(
            statusCode: 401,
            headerFields: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "n-9"], url: url)
        let again = try #require(try await fixture.session.handleRejection(of: authorized, response: challenge))
        let retried = try #require(
            again.value(forHTTPHeaderField: "DPoP").flatMap {
                FakeAuthServer.decodeProof($0, path: "/api/orders")
            })
        #expect(retried.nonce == "n-9" && retried.jti != proof.jti)
        #expect(fixture.server.count("/auth/refresh") == 0)
    }

    @Test("requests to other hosts carry no proof")
    func otherHosts() async throws {
        let server = FakeAuthServer()
        let session = AuthSession(
            baseURL: DPoPFixture.baseURL, transport: server, trustedHosts: ["cdn.example.test"],
            dpop: DPoPConfiguration(keyStore: InMemoryDPoPKeyStore(), keyKind: .softwareP256))
        try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
        let elsewhere = try #require(URL(string: "https://cdn.example.test/auth/me"))
        _ = try? await session.send(TransportRequest(url: elsewhere))
        #expect(server.requests.last?.dpop == nil)
        #expect(server.requests.first?.dpop != nil)
    }
}
