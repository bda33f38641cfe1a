import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@testable import TokenClientExamples

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("README examples", .serialized)
struct ExamplesTests {
    static let baseURL = "https://api.example.test/"
    let clock = TestClock()
    let server: FakeAuthServer
    let session: AuthSession

    init() async throws {
        server = FakeAuthServer(clock: clock)
        server.addBloomreachCustomerVendor()
        session = AuthSession(
            baseURL: try #require(URL(string: Self.baseURL)), transport: server, now: clock.closure)
        try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
    }

    @Test("the Moss authenticator returns the raw token, without Bearer, fetched once")
    func mossRawToken() async throws {
        let authenticator = TokenvendMossAuthenticator(session: session)
        #expect(try await authenticator.getAuthHeader() == "moss-1")
        #expect(try await authenticator.getAuthHeader() == "moss-1")
        #expect(server.count("/moss-token") == 1)
    }

    @Test("Moya's AccessTokenPlugin gets the session's current access token without waiting")
    func accessTokenPluginReadsTheSnapshot() async throws {
        let plugin = accessTokenPlugin(session: session)
        #expect(plugin.tokenClosure(Target()) == "access-1")
        try await session.logout()
        #expect(plugin.tokenClosure(Target()).isEmpty)
    }

    @Test("the interceptor adds the bearer to the API's requests and leaves other hosts' requests alone")
    func interceptorAdapts() async throws {
        let interceptor = TokenvendInterceptor(session: session)
        let api = try await adapt(interceptor, URLRequest(url: try #require(URL(string: Self.baseURL + "api/orders"))))
        #expect(api.value(forHTTPHeaderField: "Authorization") == "Bearer access-1")
        let other = try await adapt(
            interceptor, URLRequest(url: try #require(URL(string: "https://cdn.example.org/a"))))
        #expect(other.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test("a 401 invalid_token is retried once, and the retried request is adapted with the renewed token")
    func interceptorRetriesOnce() async throws {
        let interceptor = TokenvendInterceptor(session: session)
        let url = try #require(URL(string: Self.baseURL + "api/orders"))
        let request = Request()
        request.request = try await adapt(interceptor, URLRequest(url: url))
        request.response = try Self.unauthorized(url, challenge: #"Bearer error="invalid_token""#)
        #expect(await retry(interceptor, request) == "retry")
        let again = try await adapt(interceptor, URLRequest(url: url))
        #expect(again.value(forHTTPHeaderField: "Authorization") == "Bearer access-2")
        request.request = again
        request.retryCount = 1
        #expect(await retry(interceptor, request) == "doNotRetry")
        #expect(server.count("/auth/refresh") == 1)
    }

    @Test("a 401 without an invalid_token challenge is not retried and refreshes nothing")
    func interceptorLeavesOther401s() async throws {
        let interceptor = TokenvendInterceptor(session: session)
        let url = try #require(URL(string: Self.baseURL + "api/orders"))
        let request = Request()
        request.request = try await adapt(interceptor, URLRequest(url: url))
        request.response = try Self.unauthorized(url, challenge: nil)
        #expect(await retry(interceptor, request) == "doNotRetry")
        #expect(server.count("/auth/refresh") == 0)
    }

    @Test("the Bloomreach provider answers on the SDK's background thread for the ids last identified")
    func bloomreachProvider() async throws {
        let ids = ["registered": FakeAuthServer.user.id]
        CustomerTokens.shared.start(session: session, vendor: "bloomreach-customer")
        CustomerTokens.shared.identify(ids)
        let token = try #require(
            await withCheckedContinuation { (done: CheckedContinuation<String?, Never>) in
                Thread { done.resume(returning: CustomerTokenAuthProvider().getAuthorizationToken()) }.start()
            })
        #expect(FakeAuthServer.claims(of: token)?["sub"] as? [String: String] == ids)
    }

    @Test("the sign-in screen's messages: wrong password, rate limit, and a session ended by the server")
    func signInMessages() {
        let refused = TokenClientError.server(
            status: 401, body: ErrorBody(error: .invalidCredentials, message: "invalid credentials"))
        #expect(SignInMessages.failure(refused) == "Wrong email or password.")
        #expect(SignInMessages.failure(TokenClientError.server(status: 429, body: nil)).hasPrefix("Too many attempts"))
        #expect(SignInMessages.notice(after: .signedOut(reason: .revoked)) != nil)
        #expect(SignInMessages.notice(after: .signedOut(reason: .userAction)) == nil)
    }

    private struct Target: TargetType {}

    private func adapt(_ interceptor: TokenvendInterceptor, _ request: URLRequest) async throws -> URLRequest {
        try await withCheckedThrowingContinuation { done in
            interceptor.adapt(request, for: Session()) { done.resume(with: $0) }
        }
    }

    /// The retry decision, by case name (`RetryResult` holds an error, so it is not `Equatable`).
    private func retry(_ interceptor: TokenvendInterceptor, _ request: Request) async -> String {
        await withCheckedContinuation { done in
            interceptor.retry(request, for: Session(), dueTo: URLError(.userAuthenticationRequired)) { result in
                switch result {
                case .retry: done.resume(returning: "retry")
                case .retryWithDelay: done.resume(returning: "retryWithDelay")
                case .doNotRetry: done.resume(returning: "doNotRetry")
                case .doNotRetryWithError: done.resume(returning: "doNotRetryWithError")
                }
            }
        }
    }

    private static func unauthorized(_ url: URL, challenge: String?) throws -> HTTPURLResponse {
        try #require(
            HTTPURLResponse(
                url: url, statusCode: 401, httpVersion: "HTTP/1.1",
                headerFields: challenge.map { ["WWW-Authenticate": $0] } ?? [:]))
    }
}

@Suite("README examples: account deletion")
struct AccountDeletionExampleTests {
    @Test("the delete button's flow: a wrong password asks again, a stale passwordless sign-in signs in again")
    func outcomes() async throws {
        let server = FakeAuthServer()
        let session = AuthSession(
            baseURL: try #require(URL(string: ExamplesTests.baseURL)), transport: server, now: server.clock.closure)
        try await session.login(email: FakeAuthServer.email, password: FakeAuthServer.password)
        #expect(await AccountDeletionFlow.delete(session, password: "wrong") == .askForPassword)
        server.configure {
            $0.deletion.hasPassword = false
            $0.deletion.recentSignIn = false
        }
        #expect(await AccountDeletionFlow.delete(session, password: nil) == .signInAgain)
        server.configure { $0.deletion.recentSignIn = true }
        #expect(await AccountDeletionFlow.delete(session, password: nil) == .deleted)
        #expect(await session.state == .signedOut)
        #expect(await AccountDeletionFlow.delete(session, password: nil) != .deleted)
    }
}
