public import Foundation
public import TokenClient

extension TestServer {
    /// The client transport of the test suite, on the one ``TestSession``.
    public static let transport = URLSessionTransport(session: TestSession.shared)

    /// A client session on this server (``Mode/socket`` only).
    public func session(
        store: any TokenStore = InMemoryTokenStore(), now: @escaping @Sendable () -> Date
    ) -> AuthSession {
        AuthSession(baseURL: baseURL, transport: Self.transport, store: store, now: now)
    }

    /// Registers `email` with the test password and signs `session` in.
    public func signUp(_ session: AuthSession, email: String = "user-\(UUID().uuidString.prefix(8))@example.com")
        async throws
    {
        try await session.register(email: email, password: Self.password)
        try await session.login(email: email, password: Self.password)
    }

    /// The status and `error` code of one request sent outside any `AuthSession`.
    public func rawStatus(_ method: String, _ path: String, bearer: String? = nil, json: String? = nil) async throws
        -> (status: Int, error: String?)
    {
        let headers = bearer.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        let response = try await request(method, path.hasPrefix("/") ? path : "/\(path)", headers: headers, json: json)
        return (response.status, response.errorCode)
    }

    /// Whether the server still honours `refreshToken` (presenting it rotates it when it is live).
    public func refreshStatus(_ refreshToken: String) async throws -> (status: Int, error: String?) {
        try await rawStatus("POST", "/auth/refresh", json: #"{"refreshToken":"\#(refreshToken)"}"#)
    }
}
