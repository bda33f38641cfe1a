import Foundation
import HTTPServerTesting
import Testing

@testable import TokenService

@Suite(.timeLimit(.minutes(1))) struct CurlHTTPExchangeGetTests {
    @Test("GET returns the body, the status and the Cache-Control value, asking for a JWK Set")
    func answer() async throws {
        let jwks = #"{"keys":[]}"#
        let answer = FakeUpstream.Answer(
            status: 200, body: jwks, headers: ["Cache-Control": "public, max-age=3600, must-revalidate"])
        try await withFakeUpstream(always: answer) { server in
            let (outcome, cacheControl) = await CurlHTTPExchange.get(
                server.url, timeout: 5, connectTimeout: 2, limit: 65_536)
            let (body, status) = try outcome.get()
            #expect(String(decoding: body, as: UTF8.self) == jwks)
            #expect(status == 200)
            #expect(cacheControl == "public, max-age=3600, must-revalidate")
            let request = try #require(server.requests.first)
            #expect(request.method == "GET")
            #expect(request.body.isEmpty)
            #expect(request.headers["accept"] == "application/jwk-set+json, application/json")
        }
    }

    @Test("an answer without Cache-Control hands back none; a non-2xx status is reported without its body")
    func noCacheControlAndStatus() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "{}")) { server in
            let (outcome, cacheControl) = await CurlHTTPExchange.get(
                server.url, timeout: 5, connectTimeout: 2, limit: 100)
            let (_, status) = try outcome.get()
            #expect(status == 200)
            #expect(cacheControl == nil)
        }
        try await withFakeUpstream(always: .init(status: 500, body: #"{"oops":true}"#)) { server in
            let (outcome, _) = await CurlHTTPExchange.get(server.url, timeout: 5, connectTimeout: 2, limit: 100)
            let (body, status) = try outcome.get()
            #expect(status == 500)
            #expect(body.isEmpty)
        }
    }

    @Test("an endless body stops at the limit with badUpstreamResponse, well before the deadline")
    func sizeCap() async throws {
        let server = try HostileUpstream(always: .endlessBody(status: 200, contentLength: nil))
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let (outcome, _) = await CurlHTTPExchange.get(server.url, timeout: 30, connectTimeout: 2, limit: 65_536)
        #expect(throws: MossError.badUpstreamResponse) { try outcome.get() }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("a host that never answers is upstreamUnavailable at the deadline")
    func deadline() async throws {
        let server = try HostileUpstream(always: .stall(.seconds(20)))
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let (outcome, _) = await CurlHTTPExchange.get(server.url, timeout: 0.5, connectTimeout: 0.5, limit: 65_536)
        #expect(throws: MossError.upstreamUnavailable) { try outcome.get() }
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    @Test("the Cache-Control of a header line is read, and a new status line forgets the previous one")
    func headerLines() {
        func line(_ text: String) -> CurlHTTPExchange.CacheControlLine {
            Array(text.utf8).withUnsafeBytes { CurlHTTPExchange.cacheControlLine($0) }
        }
        #expect(line("cache-control:  max-age=60 \r\n") == .cacheControl("max-age=60"))
        #expect(line("HTTP/1.1 200 OK\r\n") == .statusLine)
        #expect(line("Content-Type: application/json\r\n") == .other)
        #expect(line("\r\n") == .other)
    }
}
