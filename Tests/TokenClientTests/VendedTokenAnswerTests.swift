import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientCore
import TokenClientTesting

/// An ``AuthenticatedTransport`` that answers every request with one canned status and body, and records the
/// URLs it was asked for.
final class CannedTransport: AuthenticatedTransport {
    let baseURL: URL
    private let answer: (status: Int, body: String)
    private let urls = Locked<[URL]>([])

    init(status: Int, body: String) throws {
        baseURL = try #require(URL(string: "https://api.example.test/v1/"))
        answer = (status, body)
    }

    var requestedURLs: [URL] { urls.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        urls.withLock { $0.append(request.url) }
        return (Data(answer.body.utf8), TransportResponse(statusCode: answer.status, url: request.url))
    }
}

@Suite("VendedTokenProvider answers")
struct VendedTokenAnswerTests {
    static let liveKitToken = FakeAuthServer.jws(["exp": 1_800_000_600, "sub": "u-1"])
    static let tokenWithoutExp = FakeAuthServer.jws(["sub": "u-1"])

    @Test(
        "an answer the provider cannot use is an invalid response",
        arguments: [
            (200, #"{"token":"","expiresIn":600}"#),
            (200, #"{"token":"t"}"#),
            (200, #"{"expiresIn":600}"#),
            (200, #"{"token":"t","expiresIn":"600"}"#),
            (201, #"{"server_url":"wss://video.example.test","participant_token":"not-a-jwt"}"#),
            (201, #"{"server_url":"wss://video.example.test","participant_token":"\#(tokenWithoutExp)"}"#),
            (201, #"{"server_url":"not a url","participant_token":"\#(liveKitToken)"}"#),
            (201, #"{"participant_token":"\#(liveKitToken)"}"#),
            (200, "[]"),
        ])
    func unusable(status: Int, body: String) async throws {
        let provider = VendedTokenProvider(session: try CannedTransport(status: status, body: body), vendor: "v")
        await #expect(throws: TokenClientError.invalidResponse) { try await provider.currentToken() }
    }

    @Test("a LiveKit answer is read from its own members, and expiresAt may be absent from a {token} answer")
    func bothShapes() async throws {
        let liveKit = try CannedTransport(
            status: 201,
            body: #"{"server_url":"https://video.example.test/","participant_token":"\#(Self.liveKitToken)"}"#)
        let details = try await VendedTokenProvider(session: liveKit, vendor: "v").connectionDetails()
        #expect(details.serverURL.absoluteString == "https://video.example.test/")
        #expect(details.token == Self.liveKitToken)
        let plain = try CannedTransport(status: 200, body: #"{"token":"opaque","expiresIn":60}"#)
        #expect(try await VendedTokenProvider(session: plain, vendor: "v", margin: 0).token() == "opaque")
    }

    @Test("the vendor name is one path component under vend/ of the base URL")
    func vendorIsOnePathComponent() async throws {
        let transport = try CannedTransport(status: 404, body: #"{"error":"not_found","message":"m"}"#)
        for vendor in ["stream-chat", "../auth/logout", "a?b"] {
            let error = await #expect(throws: TokenClientError.self) {
                try await VendedTokenProvider(session: transport, vendor: vendor).token()
            }
            #expect(error?.code == .notFound)
        }
        #expect(
            transport.requestedURLs.map(\.absoluteString) == [
                "https://api.example.test/v1/vend/stream-chat",
                "https://api.example.test/v1/vend/..%2Fauth%2Flogout",
                "https://api.example.test/v1/vend/a%3Fb",
            ])
    }

    @Test("a parameter value that is not a string, integer, boolean or object of strings does not decode")
    func parameterValueDecoding() throws {
        for json in ["1.5", "null", "[1]", #"{"a":1}"#] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(VendorParameterValue.self, from: Data(json.utf8))
            }
        }
        let decoded = try JSONDecoder().decode(
            [VendorParameterValue].self, from: Data(#"["x",2,false,{"registered":"u-1"}]"#.utf8))
        #expect(decoded == ["x", 2, false, .customerIds(["registered": "u-1"])])
    }
}
