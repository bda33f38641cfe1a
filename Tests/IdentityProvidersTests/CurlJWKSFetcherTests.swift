import Foundation
import HTTPServerTesting
import IdentityProviders
import Testing

@Suite(.timeLimit(.minutes(1))) struct CurlJWKSFetcherTests {
    static func outcome(_ fetcher: CurlJWKSFetcher, _ url: String) async -> Result<JWKSDocument, JWKSFetchError> {
        do throws(JWKSFetchError) { return .success(try await fetcher.fetch(url)) } catch { return .failure(error) }
    }

    @Test(
        "refuses every URL but https and http to a loopback host, without a request",
        arguments: [
            "http://keys.example/jwks", "ftp://127.0.0.1/jwks", "file:///etc/passwd", "https://user:pw@keys.example/",
            "not a url", "http://10.0.0.1/jwks",
        ])
    func insecureURLs(url: String) async {
        #expect(await Self.outcome(CurlJWKSFetcher(), url) == .failure(.insecureURL))
    }

    @Test("a 200 is a document with its body and the max-age of its Cache-Control")
    func document() async throws {
        let answer = FakeUpstream.Answer(
            status: 200, body: #"{"keys":[]}"#, headers: ["Cache-Control": "public, max-age=21600"])
        try await withFakeUpstream(always: answer) { server in
            let document = try await CurlJWKSFetcher().fetch(server.url.absoluteString)
            #expect(document == JWKSDocument(body: Array(#"{"keys":[]}"#.utf8), maxAge: 21600))
        }
    }

    @Test("any other status is .status, a body over 64 KiB .tooLarge, a dead port .unreachable")
    func failures() async throws {
        try await withFakeUpstream(always: .init(status: 404, body: "{}")) { server in
            #expect(await Self.outcome(CurlJWKSFetcher(), server.url.absoluteString) == .failure(.status(404)))
        }
        let large = String(repeating: " ", count: CurlJWKSFetcher.maximumBodyBytes) + "{}"
        try await withFakeUpstream(always: .init(status: 200, body: large)) { server in
            #expect(await Self.outcome(CurlJWKSFetcher(), server.url.absoluteString) == .failure(.tooLarge))
        }
        let port = try RawHTTP.deadPort()
        let dead = await Self.outcome(CurlJWKSFetcher(), "http://127.0.0.1:\(port)/keys")
        guard case .failure(.unreachable) = dead else {
            Issue.record("expected unreachable, got \(dead)")
            return
        }
    }

    @Test("a 302 is refused as .status(302) and its Location is never fetched")
    func redirectNotFollowed() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: #"{"keys":[]}"#)) { target in
            let location = target.url.absoluteString
            try await withFakeUpstream(always: .init(status: 302, body: "", headers: ["Location": location])) {
                server in
                let outcome = await Self.outcome(CurlJWKSFetcher(), server.url.absoluteString)
                #expect(outcome == .failure(.status(302)))
                #expect(server.callCount == 1)
                #expect(target.callCount == 0)
            }
        }
    }

    @Test("a provider that never answers is .timedOut at the deadline")
    func deadline() async throws {
        let server = try HostileUpstream(always: .stall(.seconds(20)))
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let outcome = await Self.outcome(
            CurlJWKSFetcher(timeout: 0.5, connectTimeout: 0.5), server.url.absoluteString)
        #expect(outcome == .failure(.timedOut))
        #expect(ContinuousClock.now - started < .seconds(3))
    }
}
