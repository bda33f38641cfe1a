import Foundation
import Testing
import TokenClient

@Suite("URLSessionTransport")
struct URLSessionTransportTests {
    @Test("a refused connection is a transport error and leaves the session signed out", .timeLimit(.minutes(1)))
    func refusedConnection() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let session = AuthSession(
            baseURL: try #require(URL(string: "http://127.0.0.1:1/")),
            transport: URLSessionTransport()
        )
        let error = await #expect(throws: TokenClientError.self) {
            try await session.login(email: "ada@example.com", password: "correct horse")
        }
        guard case .transport = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(await session.state == .signedOut)
    }
}
