import CCurl
import Foundation
import HTTPServerTesting
import Synchronization
import Testing

@testable import OutboundHTTP

/// The client against loopback servers started here: what is sent, what comes back, and every limit.
@Suite(.timeLimit(.minutes(1))) struct OutboundHTTPClientTests {
    static func send(_ client: OutboundHTTPClient, _ request: OutboundHTTPRequest) async
        -> Result<OutboundHTTPResponse, OutboundHTTPError>
    {
        do throws(OutboundHTTPError) { return .success(try await client.send(request)) } catch {
            return .failure(error)
        }
    }

    static func get(_ client: OutboundHTTPClient = OutboundHTTPClient(), _ url: URL) async throws
        -> Result<OutboundHTTPResponse, OutboundHTTPError>
    {
        await send(client, OutboundHTTPRequest(url: try OutboundURL(url.absoluteString)))
    }

    @Test("GET returns the body, the status and the head's fields, Cache-Control joined")
    func answer() async throws {
        let jwks = #"{"keys":[]}"#
        let answer = FakeUpstream.Answer(
            status: 200, body: jwks, headers: ["Cache-Control": "public, max-age=3600, must-revalidate"])
        try await withFakeUpstream(always: answer) { server in
            let url = try OutboundURL(server.url.absoluteString)
            let request = OutboundHTTPRequest(url: url, headers: [("Accept", "application/jwk-set+json")])
            let response = try await OutboundHTTPClient().send(request)
            #expect(String(decoding: response.body, as: UTF8.self) == jwks)
            #expect(response.status == 200 && response.isSuccess)
            #expect(response.cacheControl == "public, max-age=3600, must-revalidate")
            #expect(response.header("content-type") != nil)
            #expect(response.url == url)
            let received = try #require(server.requests.first)
            #expect(received.method == "GET")
            #expect(received.body.isEmpty)
            #expect(received.headers["accept"] == "application/jwk-set+json")
            #expect(received.headers["user-agent"] == "tokenvend")
        }
    }

    @Test("POST sends method, body and fields as given, without Expect: 100-continue")
    func post() async throws {
        try await withFakeUpstream(always: .init(status: 201, body: "{}")) { server in
            let request = OutboundHTTPRequest(
                method: .post, url: try OutboundURL(server.url.absoluteString),
                headers: [("Content-Type", "application/json"), ("X-Empty", "")], body: Array(#"{"a":1}"#.utf8))
            let response = try await OutboundHTTPClient().send(request)
            #expect(response.status == 201)
            let received = try #require(server.requests.first)
            #expect(received.method == "POST")
            #expect(received.body == Array(#"{"a":1}"#.utf8))
            #expect(received.headers["content-type"] == "application/json")
            #expect(received.headers["x-empty"] == "")
            #expect(received.headers["expect"] == nil)
        }
    }

    @Test("a non-2xx body is read by default and discarded on the head when asked; no Cache-Control is none")
    func nonSuccessBodies() async throws {
        try await withFakeUpstream(always: .init(status: 500, body: #"{"oops":true}"#)) { server in
            let read = try await Self.get(OutboundHTTPClient(), server.url).get()
            #expect(read.status == 500 && read.body == Array(#"{"oops":true}"#.utf8))
            #expect(read.cacheControl == nil)
            let discarded = try await Self.get(OutboundHTTPClient(nonSuccessBodies: .discard), server.url).get()
            #expect(discarded.status == 500 && discarded.body.isEmpty)
        }
    }

    @Test("a header name that is not a token or a value with CR/LF is refused before anything is sent")
    func invalidHeaders() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "{}")) { server in
            let url = try OutboundURL(server.url.absoluteString)
            for headers in [[("X-Evil", "a\r\nInjected: 1")], [("Bad Name", "v")], [("X", "nul\u{0}")], [("", "v")]] {
                let outcome = await Self.send(OutboundHTTPClient(), OutboundHTTPRequest(url: url, headers: headers))
                #expect(outcome.failure == .invalidHeader)
            }
            #expect(server.callCount == 0)
        }
    }

    @Test("a server that accepts and never answers is .timedOut at the deadline")
    func timedOut() async throws {
        let server = try HostileUpstream(always: .stall(.seconds(20)))
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let outcome = try await Self.get(OutboundHTTPClient(deadline: .milliseconds(500)), server.url)
        #expect(outcome.failure == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    @Test("cancelling the caller answers it at once with .cancelled, long before the deadline")
    func cancelled() async throws {
        let server = try HostileUpstream(always: .stall(.seconds(20)))
        defer { server.shutdown() }
        let url = try OutboundURL(server.url.absoluteString)
        let started = ContinuousClock.now
        let task = Task { await Self.send(OutboundHTTPClient(deadline: .seconds(30)), OutboundHTTPRequest(url: url)) }
        task.cancel()
        #expect(await task.value.failure == .cancelled)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("a closed port is .connectionRefused")
    func connectionRefused() async throws {
        let port = try RawHTTP.deadPort()
        let outcome = await Self.send(
            OutboundHTTPClient(), OutboundHTTPRequest(url: try OutboundURL("http://127.0.0.1:\(port)/x")))
        #expect(outcome.failure == .connectionRefused)
    }

    @Test("an answer that is not HTTP is .malformedResponse; a connection closed without answer .connectionLost")
    func notHTTP() async throws {
        let banner = try HostileUpstream(always: .raw("SSH-2.0-OpenSSH_9.2\r\nnot http at all\r\n\r\n"))
        defer { banner.shutdown() }
        #expect(try await Self.get(OutboundHTTPClient(), banner.url).failure == .malformedResponse)
        let closing = try HostileUpstream(always: .closeWithoutAnswer)
        defer { closing.shutdown() }
        #expect(try await Self.get(OutboundHTTPClient(), closing.url).failure == .connectionLost)
    }

    @Test(
        "a body over the limit is .tooLarge and the transfer stops: the server sees the client go away",
        arguments: [Int?.none, 64 << 20])
    func tooLarge(contentLength: Int?) async throws {
        let sink = try BodySink(contentLength: contentLength)
        let started = ContinuousClock.now
        let outcome = await Self.send(
            OutboundHTTPClient(deadline: .seconds(30), maximumBodyBytes: 65_536),
            OutboundHTTPRequest(url: try OutboundURL("http://127.0.0.1:\(sink.port)/big")))
        #expect(outcome.failure == .tooLarge)
        #expect(ContinuousClock.now - started < .seconds(5))
        // The event: the server's next write fails because the client closed the connection.
        let ending = await sink.ending()
        #expect(ending.clientWentAway)
        #expect(ending.bytesWritten < BodySink.totalBytes)
    }

    @Test("a body of exactly the limit is accepted")
    func exactlyTheLimit() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: String(repeating: "a", count: 1000))) { server in
            let response = try await Self.get(OutboundHTTPClient(maximumBodyBytes: 1000), server.url).get()
            #expect(response.body.count == 1000)
            let refused = try await Self.get(OutboundHTTPClient(maximumBodyBytes: 999), server.url)
            #expect(refused.failure == .tooLarge)
        }
    }

    @Test("a redirect is not followed unless asked, then only to a URL the rule and the caller accept")
    func redirects() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "target")) { target in
            let location = target.url.absoluteString
            let redirect = FakeUpstream.Answer(status: 302, body: "", headers: ["Location": location])
            try await withFakeUpstream(always: redirect) { origin in
                let notFollowed = try await Self.get(OutboundHTTPClient(), origin.url).get()
                #expect(notFollowed.status == 302)
                #expect(notFollowed.header("location") == location)
                #expect(target.callCount == 0)
                let followed = try await Self.get(OutboundHTTPClient(redirects: .follow(maximum: 2)), origin.url).get()
                #expect(followed.status == 200 && followed.body == Array("target".utf8))
                #expect(followed.url.text == location)
                #expect(target.callCount == 1)
                let vetoed = OutboundHTTPClient(redirects: .follow(maximum: 2, accepts: { _ in false }))
                #expect(try await Self.get(vetoed, origin.url).failure == .redirectRefused)
                #expect(target.callCount == 1)
            }
        }
        for location in [
            "http://127.0.0.1.evil.com/x", "http://example.com/x", "ftp://127.0.0.1/x", "https://u@x.com/",
        ] {
            let redirect = FakeUpstream.Answer(status: 307, body: "", headers: ["Location": location])
            try await withFakeUpstream(always: redirect) { origin in
                let outcome = try await Self.get(OutboundHTTPClient(redirects: .follow(maximum: 2)), origin.url)
                #expect(outcome.failure == .redirectRefused)
            }
        }
    }

    @Test("a redirect loop stops at the maximum with .tooManyRedirects")
    func redirectLoop() async throws {
        let port = Mutex<Int>(0)
        try await withFakeUpstream(script: { _ in
            .init(
                status: 301, body: "",
                headers: ["Location": "http://127.0.0.1:\(port.withLock { $0 })/identity/auth/token"])
        }) { server in
            port.withLock { $0 = server.port }
            let outcome = try await Self.get(OutboundHTTPClient(redirects: .follow(maximum: 3)), server.url)
            #expect(outcome.failure == .tooManyRedirects)
            #expect(server.callCount == 4)
        }
    }

    @Test("a cross-origin redirect drops Authorization; a 303 turns POST into GET without body")
    func redirectRewrites() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "ok")) { target in
            let location = target.url.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let redirect = FakeUpstream.Answer(status: 303, body: "", headers: ["Location": location])
            try await withFakeUpstream(always: redirect) { origin in
                let request = OutboundHTTPRequest(
                    method: .post, url: try OutboundURL(origin.url.absoluteString),
                    headers: [("Authorization", "Bearer secret"), ("Content-Type", "application/json")],
                    body: Array("{}".utf8))
                let response = try await OutboundHTTPClient(redirects: .follow(maximum: 1)).send(request)
                #expect(response.status == 200)
                let received = try #require(target.requests.first)
                #expect(received.method == "GET" && received.body.isEmpty)
                #expect(received.headers["authorization"] == nil)
                #expect(received.headers["content-type"] == nil)
            }
        }
    }

    @Test("https to a server that does not speak TLS is .tls")
    func tls() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "{}")) { server in
            let url = try OutboundURL("https://127.0.0.1:\(server.port)/x")
            #expect(await Self.send(OutboundHTTPClient(), OutboundHTTPRequest(url: url)).failure == .tls)
        }
    }

    @Test(
        "libcurl's result codes (and the connect errno) map to the typed errors",
        arguments: [
            (CURLE_OPERATION_TIMEDOUT, 0, OutboundHTTPError.timedOut),
            (CURLE_COULDNT_CONNECT, Int(ECONNREFUSED), .connectionRefused),
            (CURLE_COULDNT_CONNECT, Int(ENETUNREACH), .unreachable),
            (CURLE_COULDNT_RESOLVE_HOST, 0, .unreachable), (CURLE_PEER_FAILED_VERIFICATION, 0, .tls),
            (CURLE_SSL_CONNECT_ERROR, 0, .tls), (CURLE_GOT_NOTHING, 0, .connectionLost),
            (CURLE_RECV_ERROR, 0, .connectionLost), (CURLE_WEIRD_SERVER_REPLY, 0, .malformedResponse),
            (CURLE_FILESIZE_EXCEEDED, 0, .tooLarge), (CURLE_ABORTED_BY_CALLBACK, 0, .cancelled),
        ])
    func resultCodes(code: CURLcode, osErrno: Int, error: OutboundHTTPError) {
        #expect(CurlExchange.error(for: code, osErrno: osErrno) == error)
    }

    @Test("header lines: fields with trimmed values, folded lines, a new status line, the end of the head")
    func headerLines() {
        func line(_ text: String) -> CurlExchange.HeaderLine {
            Array(text.utf8).withUnsafeBytes { CurlExchange.headerLine($0) }
        }
        #expect(line("cache-control:  max-age=60 \r\n") == .field(name: "cache-control", value: "max-age=60"))
        #expect(line("HTTP/1.1 200 OK\r\n") == .statusLine)
        #expect(line("Content-Type: application/json\r\n") == .field(name: "Content-Type", value: "application/json"))
        #expect(line("  more\r\n") == .continuation("more"))
        #expect(line("\r\n") == .end)
        #expect(line("garbage\r\n") == .other)
    }

    @Test("a Location is resolved against the request's URL, absolute, absolute-path or relative")
    func locations() {
        let base = "http://127.0.0.1:8080/a/b?q=1"
        #expect(CurlExchange.resolve("https://x.example/k", against: base) == "https://x.example/k")
        #expect(CurlExchange.resolve("/k?z", against: base) == "http://127.0.0.1:8080/k?z")
        #expect(CurlExchange.resolve("c", against: base) == "http://127.0.0.1:8080/a/c")
        #expect(CurlExchange.resolve("//localhost:9/k", against: base) == "http://localhost:9/k")
    }

    @Test("deadlines round up to whole milliseconds, at least one")
    func milliseconds() {
        #expect(Curl.milliseconds(.seconds(2)) == 2000)
        #expect(Curl.milliseconds(.microseconds(1)) == 1)
        #expect(Curl.milliseconds(.nanoseconds(1_000_001)) == 2)
    }
}

extension Result {
    /// The failure, or nil.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
