import AppIntegrityTesting
import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenService
import TokenServiceTesting

/// `AuthSession` with an integrity provider against the real server with `integrity.routes.login` and `.vend` at
/// `require`: the debug provider, and App Attest through ``FakeAppAttest`` (real attestations and assertions).
@Suite("App integrity against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct IntegrityEndToEndTests {
    static let secret = "client-e2e-debug-secret"
    /// `printf %s client-e2e-debug-secret | sha256sum`.
    static let secretHash = "cc295d0d8273310034d835222837eb4ee0f79471404066458fbc039f25096ca8"
    static let appID = "TEAMID1234.com.example.app"
    static let vendors = #"""
        {"chat": {"preset": "stream-chat", "apiKey": "chat-key", "apiSecret": "client-integrity-secret-0123456789abcdef"}}
        """#
    static let required = [
        "TOKENVEND_VENDORS": vendors,
        "TOKENVEND_INTEGRITY_ROUTES_VEND": "require",
        "TOKENVEND_INTEGRITY_ROUTES_LOGIN": "require",
    ]

    /// The value of `tokenvend_integrity_checks_total{route,result,reason}` (0 when the series does not exist).
    static func count(_ live: TestServer, _ route: String, _ result: String, _ reason: String) -> Double {
        let text = String(decoding: live.server.metrics.exposition(), as: UTF8.self)
        let series = #"tokenvend_integrity_checks_total{route="\#(route)",result="\#(result)",reason="\#(reason)"} "#
        let line = text.split(separator: "\n").first { $0.hasPrefix(series) }
        return line.flatMap { Double($0.dropFirst(series.count)) } ?? 0
    }

    static func email() -> String { "integrity-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    @Test("with the debug provider a user signs in and vends; without it, or with a wrong secret, login is refused")
    func debugProvider() async throws {
        var environment = Self.required
        environment["TOKENVEND_INTEGRITY_DEBUG_TOKENS"] = #"["\#(Self.secretHash)"]"#
        environment["TOKENVEND_INTEGRITY_ALLOW_DEBUG_TOKENS"] = "true"
        try await withTestServer(environment: environment) { live in
            let session = AuthSession(
                baseURL: live.baseURL, transport: TestServer.transport,
                integrity: DebugIntegrityProvider(secret: Self.secret))
            let email = Self.email()
            try await live.signUp(session, email: email)
            let chat = VendedTokenProvider(session: session, vendor: "chat")
            #expect(!(try await chat.token()).isEmpty)

            let bare = live.session(now: { Date() })
            let refused = await #expect(throws: TokenClientError.self) {
                try await bare.login(email: email, password: TestServer.password)
            }
            #expect(refused?.code == .integrityRequired)

            let wrong = AuthSession(
                baseURL: live.baseURL, transport: TestServer.transport,
                integrity: DebugIntegrityProvider(secret: "wrong"))
            let rejected = await #expect(throws: TokenClientError.self) {
                try await wrong.login(email: email, password: TestServer.password)
            }
            guard case .integrity(.rejected(let body)) = rejected else {
                Issue.record("unexpected \(String(describing: rejected))")
                return
            }
            #expect(body?.error == .integrityInvalid)
            #expect(await wrong.state == .signedOut)
        }
    }

    @Test("App Attest: attest on first use, assert on renewal, and attest a new key when the server refuses one")
    func appAttest() async throws {
        let fake = try await FakeAppAttest.start()
        defer { fake.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.url.appending(path: "root.pem")
        try Data(fake.rootPEM.utf8).write(to: root)
        var environment = Self.required
        environment["TOKENVEND_INTEGRITY_APPLE_APP_IDS"] = #"["\#(Self.appID)"]"#
        environment["TOKENVEND_INTEGRITY_APPLE_ROOT_CERTIFICATE_FILE"] = root.path
        try await withTestServer(environment: environment) { live in
            let clock = TestClock(Date())
            let service = FakeAppAttestBridge(fake: fake, appID: Self.appID)
            let keyStore = InMemoryAppAttestKeyStore()
            let session = AuthSession(
                baseURL: live.baseURL, transport: TestServer.transport,
                integrity: AppAttestIntegrityProvider(service: service, keyStore: keyStore), now: clock.closure)
            try await live.signUp(session, email: Self.email())
            let first = try #require(keyStore.load())
            let chat = VendedTokenProvider(session: session, vendor: "chat")
            #expect(!(try await chat.token()).isEmpty)

            // An hour later on the client's clock the token is renewed with an assertion by the same key.
            clock.advance(by: 3600)
            #expect(!(try await session.me().sub.isEmpty))
            _ = try await VendedTokenProvider(session: session, vendor: "chat").token()
            #expect(keyStore.load() == first)

            // A key the server never attested is refused at /integrity/apple/assert: a new key is attested.
            let unknown = try await service.generateKey()
            let other = AuthSession(
                baseURL: live.baseURL, transport: TestServer.transport,
                integrity: AppAttestIntegrityProvider(
                    service: service, keyStore: InMemoryAppAttestKeyStore(keyID: unknown)))
            try await live.signUp(other, email: Self.email())
            #expect(!(try await VendedTokenProvider(session: other, vendor: "chat").token()).isEmpty)

            #expect(Self.count(live, "attest", "passed", "none") == 2)
            #expect(Self.count(live, "assert", "passed", "none") == 1)
            #expect(Self.count(live, "assert", "failed", "unknown_key") == 1)
            #expect(Self.count(live, "vend", "passed", "none") == 3)
        }
    }
}
