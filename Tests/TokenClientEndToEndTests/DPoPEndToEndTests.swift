import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// `AuthSession(…, dpop:)` against the real server: binding at sign-in, refresh with the key, a restart, nonces.
@Suite("TokenClient DPoP against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct DPoPEndToEndTests {
    /// A session on `live` keeping its tokens and key in `store`.
    static func session(_ live: TestServer, store: FileTokenStore, kind: DPoPKeyKind, clock: TestClock) -> AuthSession {
        AuthSession(
            baseURL: live.baseURL, transport: TestServer.transport, store: store,
            dpop: DPoPConfiguration(keyStore: store, keyKind: kind), now: clock.closure)
    }

    /// The `cnf.jkt` claim of an access token.
    static func jkt(_ accessToken: String) throws -> String? {
        let payload = try #require(accessToken.split(separator: ".").dropFirst().first)
        var text = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let object = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: text)))
        return ((object as? [String: Any])?["cnf"] as? [String: Any])?["jkt"] as? String
    }

    @Test("refreshes a bound session and an Ed25519 one", arguments: [DPoPAlgorithm.es256, .edDSA])
    func refreshesBoundSession(algorithm: DPoPAlgorithm) async throws {
        let clock = TestClock(Date())
        let kind: DPoPKeyKind = algorithm == .es256 ? .softwareP256 : .softwareEd25519
        try await withTestServer(now: clock.closure) { live in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let store = FileTokenStore(url: folder.url.appending(path: "session.json"))
            let session = Self.session(live, store: store, kind: kind, clock: clock)
            try await live.signUp(session)
            let key = try kind.restore(try #require(try store.loadKey()))
            #expect(key.algorithm == algorithm)
            let signedIn = try #require(try store.load())
            #expect(signedIn.tokenType == "DPoP")
            #expect(try Self.jkt(signedIn.accessToken) == key.thumbprint)
            _ = try await session.me()
            // The bound token alone is worth nothing: not as Bearer, and its refresh token not without a proof.
            #expect(try await live.rawStatus("GET", "/auth/me", bearer: signedIn.accessToken).status == 401)

            clock.advance(by: 900 + 1)
            _ = try await session.me()  // expired: refreshed with a proof by the same key first
            let refreshed = try #require(try store.load())
            #expect(refreshed.refreshToken != signedIn.refreshToken && refreshed.tokenType == "DPoP")
            #expect(try Self.jkt(refreshed.accessToken) == key.thumbprint)

            // The app launched again: the key comes back from the session file and refreshes again.
            let relaunched = Self.session(live, store: store, kind: kind, clock: clock)
            try await relaunched.refresh()
            let again = try #require(try store.load())
            #expect(again.refreshToken != refreshed.refreshToken && again.tokenType == "DPoP")
            #expect(try await relaunched.me().sub == signedIn.user?.id)
            #expect(try await live.refreshStatus(again.refreshToken) == (400, "invalid_dpop_proof"))

            try await relaunched.logout()
            #expect(try store.loadKey() == nil)
            #expect(await relaunched.state == .signedOut)
        }
    }

    @Test("a server that requires nonces: the client retries once with the nonce and keeps it")
    func nonces() async throws {
        let clock = TestClock(Date())
        // A secret of its own: PostgreSQL (a shared database) refuses a generated one.
        let environment = [
            "TOKENVEND_DPOP_REQUIRE_NONCE": "true",
            "TOKENVEND_DPOP_NONCE_SECRET": String(repeating: "client-nonce-secret-", count: 4),
        ]
        try await withTestServer(environment: environment, now: clock.closure) { live in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let store = FileTokenStore(url: folder.url.appending(path: "session.json"))
            let counter = NonceChallengeCounter(base: TestServer.transport)
            let session = AuthSession(
                baseURL: live.baseURL, transport: counter, store: store,
                dpop: DPoPConfiguration(keyStore: store, keyKind: .softwareP256), now: clock.closure)
            try await live.signUp(session)
            #expect(try store.load()?.tokenType == "DPoP")
            #expect(counter.challenges >= 1)  // the first proof had no nonce
            let before = counter.challenges
            _ = try await session.me()
            try await session.refresh()
            #expect(counter.challenges == before)  // the nonce was kept
            #expect(try await session.me().sub == (try store.load()?.user?.id))
        }
    }
}

/// Counts the server's `use_dpop_nonce` answers passing through.
final class NonceChallengeCounter: HTTPTransport {
    let base: any HTTPTransport
    private let count = Locked(0)

    init(base: any HTTPTransport) {
        self.base = base
    }

    var challenges: Int { count.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        let (data, response) = try await base.send(request)
        if response.value(forHTTPHeaderField: "DPoP-Nonce") != nil,
            response.statusCode == 400 || response.statusCode == 401,
            String(decoding: data, as: UTF8.self).contains("use_dpop_nonce")
        {
            count.withLock { $0 += 1 }
        }
        return (data, response)
    }
}
