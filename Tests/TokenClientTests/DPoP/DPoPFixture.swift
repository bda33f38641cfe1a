import AuthAPI
import Foundation
import TokenClient
import TokenClientTesting

/// A fake server that binds sessions, stores, and an `AuthSession` with DPoP on them; ``restarted()`` is the app
/// launched again over the same stores.
struct DPoPFixture {
    static let baseURL = URL(string: "https://api.example.test/") ?? URL(fileURLWithPath: "/")
    let server: FakeAuthServer
    let tokens: any TokenStore
    let keys: any DPoPKeyStore
    let kind: DPoPKeyKind
    let session: AuthSession

    init(
        server: FakeAuthServer = FakeAuthServer(), tokens: any TokenStore = InMemoryTokenStore(),
        keys: any DPoPKeyStore = InMemoryDPoPKeyStore(), kind: DPoPKeyKind = .softwareP256,
        transport: (any HTTPTransport)? = nil
    ) {
        self.server = server
        self.tokens = tokens
        self.keys = keys
        self.kind = kind
        server.configure { $0.dpop.binds = true }
        session = AuthSession(
            baseURL: Self.baseURL, transport: transport ?? server, store: tokens,
            dpop: DPoPConfiguration(keyStore: keys, keyKind: kind), now: server.clock.closure)
    }

    /// A new session over the same server and stores.
    func restarted() -> DPoPFixture {
        DPoPFixture(server: server, tokens: tokens, keys: keys, kind: kind)
    }

    func signIn() async throws {
        try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
    }

    /// The `x` of the stored key's JWK (what the fake binds to), `nil` without one.
    func storedKeyX() throws -> String? {
        try keys.loadKey().map { try kind.restore($0).publicJWK.x }
    }
}

/// Rewrites the fake's `Bearer` challenges as `DPoP` ones, as the server answers a bound token sent as `Bearer`.
struct DPoPChallengeTransport: HTTPTransport {
    let base: any HTTPTransport

    func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        var (data, response) = try await base.send(request)
        if let challenge = response.value(forHTTPHeaderField: "WWW-Authenticate") {
            response.headerFields["WWW-Authenticate"] = challenge.replacingOccurrences(of: "Bearer ", with: "DPoP ")
        }
        return (data, response)
    }
}
