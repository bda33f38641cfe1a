import AuthAPI
import Foundation
import TokenClient
import TokenClientTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fake server, a test clock and an `AuthSession` on them, for the session's behaviour tests.
struct SessionFixture {
    static let baseURL = URL(string: "https://api.example.test/") ?? URL(fileURLWithPath: "/")
    let clock: TestClock
    let server: FakeAuthServer
    let session: AuthSession

    init(
        store: any TokenStore = InMemoryTokenStore(), trustedHosts: Set<String> = [], refreshTimeout: TimeInterval = 5,
        lockedRetryInterval: TimeInterval = 5, clock: TestClock = TestClock()
    ) {
        self.clock = clock
        server = FakeAuthServer(clock: clock)
        session = AuthSession(
            baseURL: Self.baseURL, transport: server, store: store, trustedHosts: trustedHosts,
            refreshTimeout: refreshTimeout, lockedRetryInterval: lockedRetryInterval, now: clock.closure)
    }

    /// Logs the fake user in: `access-1` / `refresh-1`.
    func signIn(as email: String = FakeAuthServer.email) async throws {
        try await session.login(email: email, password: FakeAuthServer.password)
    }

    /// A request for `path` on `baseURL` (or on `base`).
    static func request(_ path: String, on base: String = "https://api.example.test/") throws -> URLRequest {
        guard let url = URL(string: base)?.appending(path: path) else { throw TokenClientError.invalidResponse }
        return URLRequest(url: url)
    }

    /// The refresh tokens presented to `POST /auth/refresh`, in order.
    var presentedRefreshTokens: [String] {
        server.requests.filter { $0.path == "/auth/refresh" }.compactMap { recorded in
            recorded.body.flatMap { try? JSONDecoder().decode(RefreshRequest.self, from: $0).refreshToken }
        }
    }

    /// The `Authorization` headers of the requests to `path`, in order.
    func authorizations(_ path: String) -> [String?] {
        server.requests.filter { $0.path == path }.map(\.authorization)
    }
}

extension SessionEvent {
    /// True for ``signedOut(reason:)`` with any reason.
    var isSignOut: Bool {
        if case .signedOut = self { return true }
        return false
    }
}

extension TokenClientError {
    /// True for ``transport(_:)``.
    var isTransport: Bool {
        if case .transport = self { return true }
        return false
    }
}
