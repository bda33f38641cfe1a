import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("BloomreachCustomerTokenProvider")
struct BloomreachCustomerTokenProviderTests {
    static let registered = ["registered": FakeAuthServer.user.id]
    static let crm = ["crm": "C-42"]
    static let both = FakeAuthServer.customerIds

    let clock = TestClock()
    let server: FakeAuthServer
    let session: AuthSession

    init() async throws {
        server = FakeAuthServer(clock: clock)
        server.addBloomreachCustomerVendor()
        session = AuthSession(
            baseURL: try #require(URL(string: "https://api.example.test/")),
            transport: server,
            now: clock.closure
        )
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
    }

    func provider(capacity: Int = 8) -> BloomreachCustomerTokenProvider<AuthSession> {
        BloomreachCustomerTokenProvider(
            session: session, vendor: "bloomreach-customer", capacity: capacity, now: clock.closure)
    }

    func subject(_ token: String) -> [String: String]? {
        FakeAuthServer.claims(of: token)?["sub"] as? [String: String]
    }

    var requests: Int { server.count("/vend/bloomreach-customer") }

    @Test("sends {\"customerIds\": {…}} to /vend/<vendor> and returns the token for exactly those ids")
    func sendsIDs() async throws {
        let token = try await provider().token(customerIds: Self.both)
        #expect(subject(token) == Self.both)
        let request = try #require(server.requests.last)
        #expect(request.method == "POST" && request.path == "/vend/bloomreach-customer")
        let body = try JSONDecoder().decode([String: VendorParameterValue].self, from: try #require(request.body))
        #expect(body == ["customerIds": .customerIds(Self.both)])
    }

    @Test("each id set has its own cached token; another set never gets it")
    func separatesIDSets() async throws {
        let tokens = provider()
        let registered = try await tokens.token(customerIds: Self.registered)
        let crm = try await tokens.token(customerIds: Self.crm)
        let both = try await tokens.token(customerIds: Self.both)
        #expect(Set([registered, crm, both]).count == 3)
        #expect(requests == 3)
        #expect(try await tokens.token(customerIds: Self.crm) == crm)
        #expect(try await tokens.token(customerIds: Self.registered) == registered)
        #expect(try await tokens.token(customerIds: Self.both) == both)
        #expect(requests == 3)
        #expect(subject(registered) == Self.registered && subject(crm) == Self.crm && subject(both) == Self.both)
    }

    @Test("each id set is refreshed 60 s before its own expiry")
    func refreshesPerIDSet() async throws {
        let tokens = provider()
        let registered = try await tokens.token(customerIds: Self.registered)
        clock.advance(by: 1000)
        let crm = try await tokens.token(customerIds: Self.crm)
        clock.advance(by: 2540)
        #expect(try await tokens.token(customerIds: Self.registered) != registered)
        #expect(try await tokens.token(customerIds: Self.crm) == crm)
        #expect(requests == 3)
        let current = try await tokens.currentToken(customerIds: Self.crm)
        #expect(current.refreshAt == current.expiresAt.addingTimeInterval(-60))
    }

    @Test("concurrent callers share one request per id set")
    func singleFlightPerIDSet() async throws {
        let tokens = provider()
        let gate = server.gate("/vend/bloomreach-customer")
        let results = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<60 {
                let ids = index % 2 == 0 ? Self.registered : Self.crm
                group.addTask { (ids.keys.first ?? "", try await tokens.token(customerIds: ids)) }
            }
            await gate.waitForArrivals(2)
            await gate.open()
            return try await group.reduce(into: [String: Set<String>]()) { $0[$1.0, default: []].insert($1.1) }
        }
        #expect(requests == 2)
        let registered = try #require(results["registered"]?.first)
        let crm = try #require(results["crm"]?.first)
        #expect(results["registered"]?.count == 1 && results["crm"]?.count == 1)
        #expect(subject(registered) == Self.registered && subject(crm) == Self.crm)
    }

    @Test("beyond its capacity the least recently used id set loses its token")
    func boundedCache() async throws {
        let tokens = provider(capacity: 2)
        let registered = try await tokens.token(customerIds: Self.registered)
        _ = try await tokens.token(customerIds: Self.crm)
        _ = try await tokens.token(customerIds: Self.registered)
        _ = try await tokens.token(customerIds: Self.both)
        #expect(requests == 3)
        #expect(try await tokens.token(customerIds: Self.registered) == registered)
        #expect(requests == 3)
        _ = try await tokens.token(customerIds: Self.crm)
        #expect(requests == 4)
    }

    @Test("ids that are not the user's are 403 insufficient_scope and leave other id sets alone")
    func foreignIDs() async throws {
        let tokens = provider()
        let mine = try await tokens.token(customerIds: Self.registered)
        for ids in [["registered": "u-2"], ["crm": "C-42", "cookie": "c-1"], [:]] {
            let error = await #expect(throws: TokenClientError.self) { try await tokens.token(customerIds: ids) }
            #expect(error?.code == .insufficientScope)
        }
        #expect(try await tokens.token(customerIds: Self.registered) == mine)
        #expect(requests == 4)
    }

    @Test("a Retry-After holds back requests for every id set")
    func sharedBackoff() async throws {
        server.configure {
            $0.vendors["bloomreach-customer"]?.failure = (503, .unavailable)
            $0.retryAfter = 10
        }
        let tokens = provider()
        await #expect(throws: TokenClientError.self) { try await tokens.token(customerIds: Self.registered) }
        server.configure { $0.vendors["bloomreach-customer"]?.failure = nil }
        let error = await #expect(throws: TokenClientError.self) { try await tokens.token(customerIds: Self.crm) }
        #expect(error?.code == .unavailable)
        #expect(requests == 1)
        clock.advance(by: 10)
        _ = try await tokens.token(customerIds: Self.crm)
        #expect(requests == 2)
    }

    @Test("invalidate(customerIds:) refetches that id set only; invalidateAll refetches all")
    func invalidation() async throws {
        let tokens = provider()
        let registered = try await tokens.token(customerIds: Self.registered)
        let crm = try await tokens.token(customerIds: Self.crm)
        await tokens.invalidate(customerIds: Self.registered)
        let renewed = try await tokens.token(customerIds: Self.registered)
        #expect(renewed != registered)
        #expect(try await tokens.token(customerIds: Self.crm) == crm)
        #expect(requests == 3)
        await tokens.invalidateAll()
        #expect(try await tokens.token(customerIds: Self.registered) != renewed)
        #expect(try await tokens.token(customerIds: Self.crm) != crm)
        #expect(requests == 5)
    }
}
