import AuthAPI
import Foundation
import Testing
import TokenClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The conversions between the core's transport values and `URLRequest`/`HTTPURLResponse`, and the
/// `URLRequestTransport` seam built on them.
@Suite("Transport adapters")
struct TransportAdapterTests {
    @Test("a URLRequest becomes a TransportRequest with its method, URL, header fields, body and timeout")
    func requestFromURLRequest() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.test/auth/login")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("{}".utf8)
        request.timeoutInterval = 7

        let converted = try TransportRequest(request)

        #expect(converted.method == "POST")
        #expect(converted.url == request.url)
        #expect(converted.value(forHTTPHeaderField: "content-type") == "application/json")
        #expect(converted.body == Data("{}".utf8))
        #expect(converted.timeoutInterval == 7)
    }

    @Test("a TransportRequest made here becomes a URLRequest that ignores local caches")
    func urlRequestFromNew() throws {
        var request = TransportRequest(
            method: "PUT", url: try #require(URL(string: "https://api.example.test/x")), body: Data("b".utf8),
            timeoutInterval: 5)
        request.setValue("v", forHTTPHeaderField: "X-One")

        let converted = URLRequest(request)

        #expect(converted.httpMethod == "PUT")
        #expect(converted.url == request.url)
        #expect(converted.value(forHTTPHeaderField: "X-One") == "v")
        #expect(converted.httpBody == Data("b".utf8))
        #expect(converted.timeoutInterval == 5)
        #expect(converted.cachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test("converting back keeps what TransportRequest does not model, and the changes made meanwhile")
    func roundTripKeepsOrigin() throws {
        var original = URLRequest(url: try #require(URL(string: "https://api.example.test/upload")))
        original.httpMethod = "POST"
        original.httpBodyStream = InputStream(data: Data("{}".utf8))
        original.cachePolicy = .returnCacheDataElseLoad
        original.setValue("yes", forHTTPHeaderField: "X-Keep")

        var converted = try TransportRequest(original)
        converted.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        converted.setValue(nil, forHTTPHeaderField: "x-keep")
        let back = URLRequest(converted)

        #expect(back.httpBodyStream != nil)
        #expect(back.cachePolicy == .returnCacheDataElseLoad)
        #expect(back.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(back.value(forHTTPHeaderField: "X-Keep") == nil)
    }

    @Test("a URLRequest without a URL is a transport error")
    func noURL() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.test/")))
        request.url = nil
        #expect(throws: TokenClientError.transport("the request has no URL")) { try TransportRequest(request) }
    }

    @Test("setValue replaces a field of any case, and value finds it in any case")
    func headerCase() throws {
        var request = TransportRequest(url: try #require(URL(string: "https://api.example.test/")))
        request.setValue("one", forHTTPHeaderField: "x-field")
        request.setValue("two", forHTTPHeaderField: "X-Field")
        #expect(request.headerFields == ["X-Field": "two"])
        #expect(request.value(forHTTPHeaderField: "X-FIELD") == "two")
        let response = TransportResponse(statusCode: 401, headerFields: ["WWW-Authenticate": "Bearer"])
        #expect(response.value(forHTTPHeaderField: "www-authenticate") == "Bearer")
        #expect(response.value(forHTTPHeaderField: "Retry-After") == nil)
    }

    @Test("an HTTPURLResponse becomes a TransportResponse, and converts back to itself")
    func responseRoundTrip() throws {
        let url = try #require(URL(string: "https://api.example.test/auth/me"))
        let original = try #require(
            HTTPURLResponse(url: url, statusCode: 429, httpVersion: "HTTP/1.1", headerFields: ["Retry-After": "3"]))

        let converted = TransportResponse(original)

        #expect(converted.statusCode == 429)
        #expect(converted.value(forHTTPHeaderField: "retry-after") == "3")
        #expect(converted.url == url)
        #expect(try HTTPURLResponse.from(converted, answering: nil) === original)
    }

    @Test("a TransportResponse made here becomes an HTTPURLResponse for the request's URL")
    func responseFromNew() throws {
        let url = try #require(URL(string: "https://api.example.test/auth/me"))
        let made = try HTTPURLResponse.from(
            TransportResponse(statusCode: 204, headerFields: ["X-A": "b"]), answering: URLRequest(url: url))
        #expect(made.statusCode == 204)
        #expect(made.url == url)
        #expect(made.value(forHTTPHeaderField: "X-A") == "b")
        #expect(throws: TokenClientError.invalidResponse) {
            try HTTPURLResponse.from(TransportResponse(statusCode: 200), answering: nil)
        }
    }

    @Test("a URLRequestTransport serves the core's requests through its URLRequest method")
    func urlRequestTransport() async throws {
        let transport = EchoTransport()
        let url = try #require(URL(string: "https://api.example.test/auth/me"))
        var request = TransportRequest(method: "DELETE", url: url)
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")

        let (data, response) = try await transport.send(request)

        #expect(String(decoding: data, as: UTF8.self) == "DELETE Bearer t")
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "X-Echo") == "1")
    }
}

/// Answers every request with its method and `Authorization` as the body.
private struct EchoTransport: URLRequestTransport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let text = "\(request.httpMethod ?? "") \(request.value(forHTTPHeaderField: "Authorization") ?? "")"
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: ["X-Echo": "1"])
        else { throw TokenClientError.invalidResponse }
        return (Data(text.utf8), response)
    }
}
