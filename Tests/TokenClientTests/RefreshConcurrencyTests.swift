import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

/// Many callers, one refresh.
@Suite("Refresh concurrency", .timeLimit(.minutes(1)))
struct RefreshConcurrencyTests {
    @Test("200 requests from 20 tasks with an expired access token: exactly one refresh, every request succeeds")
    func twoHundredRequestsOneRefresh() async throws {
        let fixture = SessionFixture()
        try await fixture.signIn()
        fixture.clock.advance(by: 901)

        let succeeded = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    var count = 0
                    for _ in 0..<10 {
                        if try await fixture.session.me().sub == FakeAuthServer.user.id { count += 1 }
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(succeeded == 200)
        #expect(fixture.server.count("/auth/refresh") == 1)
        #expect(fixture.server.count("/auth/me") == 200)
        #expect(fixture.authorizations("/auth/me").allSatisfy { $0 == "Bearer access-2" })
    }
}
