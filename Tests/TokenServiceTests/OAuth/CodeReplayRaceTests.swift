import Foundation
import HTTPServer
import IdentityProviders
import Logging
import SQLiteStore
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

/// The code presented again while its first presentation is between `redeemCode` and `attachSession`: the replay
/// cannot see the session yet, so the first presentation must end that session itself.
@Suite struct CodeReplayRaceTests {
    /// A flow store whose `attachSession` is preceded by a replay of the same code, as a concurrent request would.
    struct ReplayBeforeAttach: OAuthFlowStoring {
        let inner: any OAuthFlowStoring
        func saveFlow(_ flow: OAuthFlow, maxLive: Int) async throws(StoreError) -> Bool {
            try await inner.saveFlow(flow, maxLive: maxLive)
        }
        func takeFlow(stateHash: String, now: Date) async throws(StoreError) -> OAuthFlow? {
            try await inner.takeFlow(stateHash: stateHash, now: now)
        }
        func saveCode(_ code: AuthorizationCode) async throws(StoreError) { try await inner.saveCode(code) }
        func redeemCode(codeHash: String, now: Date) async throws(StoreError) -> CodeRedemption {
            try await inner.redeemCode(codeHash: codeHash, now: now)
        }
        func attachSession(codeHash: String, sessionID: String) async throws(StoreError) -> Bool {
            _ = try await inner.redeemCode(codeHash: codeHash, now: Date())
            return try await inner.attachSession(codeHash: codeHash, sessionID: sessionID)
        }
        func pruneFlows(now: Date) async throws(StoreError) -> Int { try await inner.pruneFlows(now: now) }
    }

    struct Backend: StoreBackend {
        let inner: SQLiteStore
        var users: any UserStoring { inner.userStore }
        var sessions: any SessionStoring { inner.sessionStore }
        var identities: any IdentityStoring { inner.identityStore }
        var oauth: any OAuthFlowStoring { ReplayBeforeAttach(inner: inner.oauthStore) }
        var email: any EmailStoring { inner.emailStore }
        var integrity: any IntegrityStoring { inner.integrityStore }
        var passkeys: any PasskeyStoring { inner.passkeys }
        var dpopProofs: (any DPoPProofStoring)? { nil }
        var rateLimits: (any RateLimitCounters)? { nil }
        var isShared: Bool { false }
        var displayName: String { "replay-before-attach" }
        func ping() async throws(StoreError) { try await inner.ping() }
        func schemaVersion() async throws(StoreError) -> SchemaVersion { try await inner.schemaVersion() }
        func close() { inner.close() }
    }

    @Test("a replay between redeem and attach revokes the session the first presentation made; both get 400")
    func replayBeforeAttach() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "tokenvend-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try ConfigurationLoader.load(
            environment: [
                "TOKENVEND_DATABASE_PATH": directory.appending(path: "db/tokenvend.sqlite").path,
                "TOKENVEND_PASSWORD_TIME_COST": "1", "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
            ], defaultConfigPath: directory.appending(path: "none.json").path
        ).configuration
        let store = try SQLiteStore(configuration: configuration.database)
        let server = try TokenServer(
            configuration: configuration, backend: Backend(inner: store), logger: Logger(label: "race"))
        defer { Task { await server.shutdown() } }
        let user = try await store.userStore.create(email: "race@example.com", passwordHash: nil)
        let verifier = try PKCE.makeVerifier()
        let code = try OAuthRandom.token()
        let now = Date()
        try await store.oauthStore.saveCode(
            AuthorizationCode(
                codeHash: try OAuthRandom.sha256Hex(code), userID: user.id, provider: "fake",
                redirectURI: "com.example.app:/cb", codeChallenge: try PKCE.challenge(for: verifier), created: false,
                createdAt: now, expiresAt: now.addingTimeInterval(60)))
        let body = Array(
            #"{"grant_type":"authorization_code","code":"\#(code)","code_verifier":"\#(verifier)","redirect_uri":"com.example.app:/cb"}"#
                .utf8)
        let (response, _) = await server.respond(
            method: .post, target: "/auth/token",
            headers: ["Host": "127.0.0.1", "Content-Type": "application/json", "Content-Length": String(body.count)],
            body: body, peer: IPAddress(ipv4: 0x7F00_0001))
        #expect(response.status.code == 400)
        let answer = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        #expect(answer?["error"] as? String == "invalid_grant")
        let live = try await store.sessionStore.liveSessions(userID: user.id, now: Date(), limit: 10, after: nil)
        #expect(live.isEmpty)
        #expect(server.metrics.oauthSignIns.value(.tokenReplayed) == 1)
        #expect(server.metrics.sessionsRevoked.value(.codeReplayed) == 1)
    }
}
