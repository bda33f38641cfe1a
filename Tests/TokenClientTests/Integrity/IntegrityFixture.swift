import AuthAPI
import Foundation
import TokenClient
import TokenClientTesting

/// A ``FakeAuthServer`` behind a ``FakeIntegrityServer``, a fake App Attest service and a session using them.
struct IntegrityFixture {
    let clock = TestClock()
    let auth: FakeAuthServer
    let server: FakeIntegrityServer
    let service = FakeAppAttestService()
    let keyStore: InMemoryAppAttestKeyStore
    let session: AuthSession

    /// A session with an ``AppAttestIntegrityProvider`` (`storedKey` already in its key store), or with `provider`.
    init(storedKey: String? = nil, provider: (any AppIntegrityProvider)? = nil) {
        auth = FakeAuthServer(clock: clock)
        server = FakeIntegrityServer(inner: auth, clock: clock)
        keyStore = InMemoryAppAttestKeyStore(keyID: storedKey)
        let integrity = provider ?? AppAttestIntegrityProvider(service: service, keyStore: keyStore)
        session = AuthSession(
            baseURL: SessionFixture.baseURL, transport: server, integrity: integrity, now: clock.closure)
    }

    func signIn() async throws {
        try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
    }

    /// The `/integrity/*` requests, in order, without the prefix.
    var exchanges: [String] {
        server.snapshot.requests.map(\.path).filter { $0.hasPrefix("/integrity/") }.map {
            String($0.dropFirst("/integrity/".count))
        }
    }
}
