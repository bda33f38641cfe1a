import Foundation
import HTTPServerTesting
import IdentityProviders
import Testing

@Suite(.timeLimit(.minutes(1))) struct CurlOAuthClientTests {
    static func post(
        _ client: CurlOAuthClient, _ url: String, form: [(String, String)] = [("a", "b")],
        headers: [(String, String)] = []
    ) async -> Result<OAuthHTTPResponse, OAuthHTTPError> {
        do throws(OAuthHTTPError) {
            return .success(try await client.postForm(url, form: form, headers: headers))
        } catch {
            return .failure(error)
        }
    }

    static func get(_ client: CurlOAuthClient, _ url: String, bearer: String? = nil) async
        -> Result<OAuthHTTPResponse, OAuthHTTPError>
    {
        do throws(OAuthHTTPError) { return .success(try await client.get(url, bearer: bearer)) } catch {
            return .failure(error)
        }
    }

    @Test("the form body, its content type, Accept and the extra headers arrive as sent")
    func formArrivesAsSent() async throws {
        let form = [
            ("grant_type", "authorization_code"), ("code", "a+b/c=="), ("redirect_uri", "https://x.example/cb?a=1&b=2"),
            ("client_id", "id:é &"),
        ]
        try await withFakeUpstream(always: .init(status: 200, body: #"{"access_token":"t"}"#)) { server in
            let response = try await CurlOAuthClient().postForm(
                server.url.absoluteString, form: form, headers: [("Authorization", "Basic aWQ6c2VjcmV0")])
            #expect(response.status == 200)
            #expect(response.body == Array(#"{"access_token":"t"}"#.utf8))
            let request = try #require(server.requests.first)
            #expect(request.method == "POST")
            #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
            #expect(request.headers["accept"] == "application/json")
            #expect(request.headers["authorization"] == "Basic aWQ6c2VjcmV0")
            let decoded = try #require(FormEncoding.decode(String(decoding: request.body, as: UTF8.self)))
            #expect(decoded.map(\.0) == form.map(\.0))
            #expect(decoded.map(\.1) == form.map(\.1))
        }
    }

    @Test("a GET carries Accept: application/json and the bearer token, and returns the Cache-Control")
    func getWithBearer() async throws {
        let answer = FakeUpstream.Answer(status: 200, body: #"{"sub":"1"}"#, headers: ["Cache-Control": "max-age=60"])
        try await withFakeUpstream(always: answer) { server in
            let response = try await CurlOAuthClient().get(server.url.absoluteString, bearer: "gho_token")
            #expect(
                response
                    == OAuthHTTPResponse(status: 200, body: Array(#"{"sub":"1"}"#.utf8), cacheControl: "max-age=60"))
            let request = try #require(server.requests.first)
            #expect(request.method == "GET")
            #expect(request.headers["authorization"] == "Bearer gho_token")
            #expect(request.headers["accept"] == "application/json")
            _ = try await CurlOAuthClient().get(server.url.absoluteString, bearer: nil)
            #expect(server.requests.last?.headers["authorization"] == nil)
        }
    }

    @Test("a 400 JSON error answer and a 503 are returned with their bodies")
    func errorBodiesReturned() async throws {
        let body = #"{"error":"invalid_grant","error_description":"bad code"}"#
        try await withFakeUpstream(script: { $0 == 0 ? .init(status: 400, body: body) : .init(status: 503, body: "{}") }
        ) {
            server in
            let refused = await Self.post(CurlOAuthClient(), server.url.absoluteString)
            #expect(refused == .success(OAuthHTTPResponse(status: 400, body: Array(body.utf8))))
            let down = await Self.get(CurlOAuthClient(), server.url.absoluteString)
            #expect(down == .success(OAuthHTTPResponse(status: 503, body: Array("{}".utf8))))
        }
    }

    @Test("a body over 64 KiB is refused as .tooLarge, on a 200 and on a 400")
    func oversized() async throws {
        let large = String(repeating: " ", count: CurlOAuthClient.maximumBodyBytes) + "{}"
        for status in [200, 400] {
            try await withFakeUpstream(always: .init(status: status, body: large)) { server in
                #expect(await Self.post(CurlOAuthClient(), server.url.absoluteString) == .failure(.tooLarge))
                #expect(await Self.get(CurlOAuthClient(), server.url.absoluteString) == .failure(.tooLarge))
            }
        }
        let fits = String(repeating: " ", count: CurlOAuthClient.maximumBodyBytes - 2) + "{}"
        try await withFakeUpstream(always: .init(status: 200, body: fits)) { server in
            let response = try await CurlOAuthClient().get(server.url.absoluteString, bearer: nil)
            #expect(response.body.count == CurlOAuthClient.maximumBodyBytes)
        }
    }

    @Test("a 302 is returned as it is and its Location is never fetched")
    func redirectNotFollowed() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "{}")) { target in
            let location = target.url.absoluteString
            try await withFakeUpstream(always: .init(status: 302, body: "", headers: ["Location": location])) {
                server in
                let posted = await Self.post(CurlOAuthClient(), server.url.absoluteString)
                #expect((try? posted.get().status) == 302)
                let fetched = await Self.get(CurlOAuthClient(), server.url.absoluteString)
                #expect((try? fetched.get().status) == 302)
                #expect(server.callCount == 2)
                #expect(target.callCount == 0)
            }
        }
    }

    @Test(
        "refuses every URL but https and http to a loopback host, without a request",
        arguments: [
            "http://idp.example/token", "ftp://127.0.0.1/token", "file:///etc/passwd",
            "https://user:pw@idp.example/token", "not a url", "http://10.0.0.1/token", "http://192.168.1.1/token",
        ])
    func insecureURLs(url: String) async {
        #expect(await Self.post(CurlOAuthClient(), url) == .failure(.insecureURL))
        #expect(await Self.get(CurlOAuthClient(), url, bearer: "t") == .failure(.insecureURL))
    }

    @Test("a header or bearer value with CR or LF is refused before anything is sent")
    func headerInjection() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "{}")) { server in
            let url = server.url.absoluteString
            #expect(
                await Self.post(CurlOAuthClient(), url, headers: [("Authorization", "Basic x\r\nX-Evil: 1")])
                    == .failure(.insecureURL))
            #expect(await Self.post(CurlOAuthClient(), url, headers: [("Bad Name", "v")]) == .failure(.insecureURL))
            #expect(await Self.get(CurlOAuthClient(), url, bearer: "t\nX-Evil: 1") == .failure(.insecureURL))
            #expect(server.callCount == 0)
        }
    }

    @Test("a provider that never answers is .timedOut at the deadline; a dead port is .unreachable")
    func deadlineAndDeadPort() async throws {
        let server = try HostileUpstream(always: .stall(.seconds(20)))
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let outcome = await Self.post(CurlOAuthClient(timeout: 0.5, connectTimeout: 0.5), server.url.absoluteString)
        #expect(outcome == .failure(.timedOut))
        #expect(ContinuousClock.now - started < .seconds(3))
        let port = try RawHTTP.deadPort()
        #expect(await Self.get(CurlOAuthClient(), "http://127.0.0.1:\(port)/x") == .failure(.unreachable))
    }
}
