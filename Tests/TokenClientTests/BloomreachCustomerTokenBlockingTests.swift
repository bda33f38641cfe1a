import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("BloomreachCustomerTokenProvider.blockingToken")
struct BloomreachCustomerTokenBlockingTests {
    static let ids = ["registered": FakeAuthServer.user.id]

    let server: FakeAuthServer
    let tokens: BloomreachCustomerTokenProvider<AuthSession>

    init() async throws {
        let clock = TestClock()
        server = FakeAuthServer(clock: clock)
        server.addBloomreachCustomerVendor()
        let session = AuthSession(
            baseURL: try #require(URL(string: "https://api.example.test/")),
            transport: server,
            now: clock.closure
        )
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
        tokens = BloomreachCustomerTokenProvider(session: session, vendor: "bloomreach-customer", now: clock.closure)
    }

    /// Runs `body` on a thread of its own, as the Bloomreach SDK calls `getAuthorizationToken()`.
    func onOwnThread(_ body: @escaping @Sendable () -> String?) async -> String? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    @Test("on a thread outside Swift concurrency it waits for the token, then serves it from cache")
    func blocksOnPlainThread() async throws {
        let tokens = tokens
        let token = try #require(await onOwnThread { tokens.blockingToken(customerIds: Self.ids) })
        #expect(FakeAuthServer.claims(of: token)?["sub"] as? [String: String] == Self.ids)
        #expect(await onOwnThread { tokens.blockingToken(customerIds: Self.ids) } == token)
        #expect(try await tokens.token(customerIds: Self.ids) == token)
        #expect(server.count("/vend/bloomreach-customer") == 1)
    }

    @Test("inside a Swift task it returns nil at once and sends no request")
    func refusesInsideTask() async throws {
        #expect(tokens.blockingToken(customerIds: Self.ids) == nil)
        let detached = Task.detached { [tokens] in tokens.blockingToken(customerIds: Self.ids) }
        #expect(await detached.value == nil)
        #expect(server.count("/vend/bloomreach-customer") == 0)
    }

    @Test("on timeout it returns nil, and the fetch carries on into the cache for the next call")
    func timeoutLeavesFetchRunning() async throws {
        let tokens = tokens
        let gate = server.gate("/vend/bloomreach-customer")
        #expect(await onOwnThread { tokens.blockingToken(customerIds: Self.ids, timeout: 0) } == nil)
        await gate.waitForArrivals(1)
        await gate.open()
        let token = try await tokens.token(customerIds: Self.ids)
        #expect(await onOwnThread { tokens.blockingToken(customerIds: Self.ids) } == token)
        #expect(server.count("/vend/bloomreach-customer") == 1)
    }

    @Test("a failed fetch is nil")
    func failureIsNil() async throws {
        let tokens = tokens
        #expect(await onOwnThread { tokens.blockingToken(customerIds: ["registered": "u-2"]) } == nil)
        #expect(server.count("/vend/bloomreach-customer") == 1)
    }
}
