import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientCore

/// An ``AuthenticatedTransport`` other than ``AuthSession`` that names its own token owner and vends numbered
/// tokens (`token-1`, `token-2`, …) with a five-minute lifetime from any path.
final class OwnedTransport: AuthenticatedTransport {
    let baseURL = URL(fileURLWithPath: "/")
    private let state = Locked<(owner: String?, fetches: Int)>((nil, 0))

    var fetches: Int { state.withLock { $0.fetches } }

    func signIn(_ owner: String?) {
        state.withLock { $0.owner = owner }
    }

    var tokenOwner: String? {
        get async { state.withLock { $0.owner } }
    }

    func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        let count = state.withLock { state in
            state.fetches += 1
            return state.fetches
        }
        let body = try JSONEncoder().encode(VendedToken(token: Self.jwt(number: count), expiresIn: 300))
        let response = TransportResponse(
            statusCode: 200, headerFields: ["Content-Type": "application/json"], url: request.url)
        return (body, response)
    }

    /// An unsigned JWT-shaped token whose payload has `exp` five minutes from now and `n` = `number`.
    static func jwt(number: Int) -> String {
        let exp = Int(Date().timeIntervalSince1970) + 300
        let payload = Data(#"{"exp":\#(exp),"n":\#(number)}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "eyJhbGciOiJub25lIn0.\(payload).sig-\(number)"
    }
}

@Suite("AuthenticatedTransport.tokenOwner")
struct TransportOwnerTests {
    @Test("a Moss provider over any transport drops its cached token when the transport's owner changes")
    func mossFollowsOwner() async throws {
        let transport = OwnedTransport()
        transport.signIn("user-a")
        let moss = MossTokenProvider(session: transport)
        let first = try await moss.getAuthHeader()
        #expect(try await moss.getAuthHeader() == first)
        #expect(transport.fetches == 1)
        transport.signIn("user-b")
        let second = try await moss.getAuthHeader()
        #expect(second != first)
        #expect(transport.fetches == 2)
    }

    @Test("a Stream provider over any transport drops its cached token when the transport's owner changes")
    func streamFollowsOwner() async throws {
        let transport = OwnedTransport()
        transport.signIn("user-a")
        let stream = StreamTokenProvider(session: transport)
        let first = try await stream.token()
        #expect(try await stream.token() == first)
        transport.signIn(nil)
        #expect(try await stream.token() != first)
        #expect(transport.fetches == 2)
    }

    @Test("a vended-token provider over any transport drops its cached token when the transport's owner changes")
    func vendedFollowsOwner() async throws {
        let transport = OwnedTransport()
        transport.signIn("user-a")
        let chat = VendedTokenProvider(session: transport, vendor: "stream-chat")
        let first = try await chat.token()
        #expect(try await chat.token() == first)
        transport.signIn("user-b")
        #expect(try await chat.token() != first)
        #expect(transport.fetches == 2)
    }

    @Test("a Bloomreach customer-token provider drops the token of every id set when the owner changes")
    func customerTokensFollowOwner() async throws {
        let transport = OwnedTransport()
        transport.signIn("user-a")
        let tokens = BloomreachCustomerTokenProvider(session: transport, vendor: "bloomreach-customer")
        let ids = ["registered": "shared-id"]
        let first = try await tokens.token(customerIds: ids)
        #expect(try await tokens.token(customerIds: ids) == first)
        transport.signIn("user-b")
        #expect(try await tokens.token(customerIds: ids) != first)
        #expect(transport.fetches == 2)
    }
}
