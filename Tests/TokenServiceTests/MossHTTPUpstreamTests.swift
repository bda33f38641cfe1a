import AuthAPI
import Foundation
import HTTPServerTesting
import InMemoryLogging
import Logging
import Testing

@testable import TokenService

/// A project key that must never show up in errors, logs or descriptions.
let mossTestProjectKey = "mk_live_TOP-SECRET-KEY-0123456789"

private func makeUpstream(url: URL, timeout: Duration = .seconds(5)) -> MossHTTPUpstream {
    MossHTTPUpstream(
        configuration: MossConfiguration(
            projectId: "proj-42", projectKey: mossTestProjectKey, authURL: url, timeout: timeout)
    )
}

/// Runs `body` against a fake upstream (tokenvend's own HTTPServer) that is shut down on every path.
private func withServer<T>(
    _ script: @escaping @Sendable (Int) -> FakeUpstream.Answer,
    _ body: (FakeUpstream) async throws -> T
) async throws -> T {
    try await withFakeUpstream(script: script, body)
}

/// Runs `body` against a raw-socket upstream that misbehaves as scripted, shut down on every path.
private func withHostileServer<T>(
    _ script: @escaping @Sendable (Int) -> HostileUpstream.Behaviour,
    _ body: (HostileUpstream) async throws -> T
) async throws -> T {
    let server = try HostileUpstream(script: script)
    defer { server.shutdown() }
    return try await body(server)
}

private func fetch(_ upstream: MossHTTPUpstream) async -> Result<MossProjectToken, MossError> {
    do throws(MossError) { return .success(try await upstream.fetchProjectToken()) } catch { return .failure(error) }
}

@Suite(.timeLimit(.minutes(1))) struct MossHTTPUpstreamTests {
    @Test("posts the project credentials as JSON and returns the token on 200")
    func success() async throws {
        try await withServer({ _ in .init(status: 200, body: #"{"token":"eyJ.moss.tok","expiresIn":3600}"#) }) {
            server in
            let token = try await makeUpstream(url: server.url).fetchProjectToken()
            #expect(token == MossProjectToken(token: "eyJ.moss.tok", expiresIn: 3600))

            let request = try #require(server.requests.first)
            #expect(server.callCount == 1)
            #expect(request.method == "POST")
            #expect(request.target == "/identity/auth/token")
            #expect(request.headers["content-type"] == "application/json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
            #expect(json == ["projectId": "proj-42", "projectKey": mossTestProjectKey])
        }
    }

    @Test(
        "maps upstream statuses to 502 errors",
        arguments: [
            (401, MossError.upstreamRejected(status: 401)), (403, .upstreamRejected(status: 403)),
            (400, .upstreamFailed(status: 400)), (404, .upstreamFailed(status: 404)),
            (429, .upstreamFailed(status: 429)), (500, .upstreamFailed(status: 500)),
            (503, .upstreamFailed(status: 503)),
        ]
    )
    func statusMapping(status: Int, expected: MossError) async throws {
        let body = #"{"error":"nope","detail":"\#(mossTestProjectKey)"}"#
        let result = try await withServer({ _ in .init(status: status, body: body) }) { server in
            await fetch(makeUpstream(url: server.url))
        }
        #expect(result == .failure(expected))
        #expect(expected.httpStatus == 502)
        #expect(expected.errorCode == "upstream_error")
    }

    @Test("does not follow redirects, so the key only ever goes to the configured URL")
    func refusesRedirects() async throws {
        try await withServer({ _ in .init(status: 200, body: #"{"token":"t","expiresIn":3600}"#) }) { elsewhere in
            let location = elsewhere.url.absoluteString
            let result = try await withServer({ _ in .init(status: 307, body: "", headers: ["Location": location]) }) {
                server in await fetch(makeUpstream(url: server.url))
            }
            #expect(result == .failure(.upstreamFailed(status: 307)))
            #expect(elsewhere.callCount == 0)
        }
    }

    @Test("a 200 with garbage JSON is a bad upstream response (502)")
    func garbageOverTheWire() async throws {
        let result = try await withServer({ _ in .init(status: 200, body: "<html>oops</html>") }) { server in
            await fetch(makeUpstream(url: server.url))
        }
        #expect(result == .failure(.badUpstreamResponse))
    }

    @Test(
        "rejects bodies without a plausible token and lifetime",
        arguments: [
            "", "null", "[]", "\"tok\"", "{}", #"{"token":"t"}"#, #"{"expiresIn":3600}"#,
            #"{"token":"","expiresIn":3600}"#, #"{"token":5,"expiresIn":3600}"#, #"{"token":null,"expiresIn":3600}"#,
            #"{"token":"t","expiresIn":"3600"}"#, #"{"token":"t","expiresIn":true}"#, #"{"token":"t","expiresIn":0}"#,
            #"{"token":"t","expiresIn":0.5}"#, #"{"token":"t","expiresIn":-60}"#, #"{"token":"t","expiresIn":1e12}"#,
            #"{"token":"t","expiresIn":31536001}"#, #"{"token":"has space","expiresIn":3600}"#,
            #"{"token":"t","expiresIn":3600"#,
        ]
    )
    func rejectsGarbage(body: String) {
        #expect(throws: MossError.badUpstreamResponse) { try MossHTTPUpstream.parse(Data(body.utf8)) }
    }

    @Test("accepts extra members and rounds a fractional lifetime down")
    func lenientParsing() throws {
        let body = #"{"token":"abc.def","expiresIn":3600.9,"tokenType":"Bearer"}"#
        #expect(try MossHTTPUpstream.parse(Data(body.utf8)) == MossProjectToken(token: "abc.def", expiresIn: 3600))
    }

    @Test("rejects a body over 64 KiB")
    func oversizedBody() {
        let token = String(repeating: "a", count: 70_000)
        let body = #"{"token":"\#(token)","expiresIn":3600}"#
        #expect(throws: MossError.badUpstreamResponse) { try MossHTTPUpstream.parse(Data(body.utf8)) }
    }

    @Test("an endless 200 body fails as soon as it passes 64 KiB, at once, and the transfer stops there")
    func endlessBody() async throws {
        try await withHostileServer({ _ in .endlessBody(status: 200, contentLength: nil) }) { server in
            let started = ContinuousClock.now
            let result = await fetch(makeUpstream(url: server.url, timeout: .seconds(40)))
            #expect(result == .failure(.badUpstreamResponse))
            // Decided by the limit, not the deadline (which would be upstreamUnavailable): the write callback
            // refuses the first byte past 64 KiB (tens of milliseconds when idle; 2 s leaves room for a loaded
            // machine, and is far below the 40 s timeout).
            #expect(ContinuousClock.now - started < .seconds(2))
            try await Self.expectTransferStopped(server)
            #expect(server.streamedBytes >= MossHTTPUpstream.maximumBodyBytes)
        }
    }

    @Test("a declared Content-Length over 64 KiB fails on the head, and the transfer stops there")
    func oversizedContentLength() async throws {
        try await withHostileServer({ _ in .endlessBody(status: 200, contentLength: 1 << 40) }) { server in
            let started = ContinuousClock.now
            let result = await fetch(makeUpstream(url: server.url, timeout: .seconds(40)))
            #expect(result == .failure(.badUpstreamResponse))
            #expect(ContinuousClock.now - started < .seconds(2))
            try await Self.expectTransferStopped(server)
        }
    }

    @Test("a non-2xx answer is settled on its head: an endless error body is never read")
    func errorStatusWithEndlessBody() async throws {
        try await withHostileServer({ _ in .endlessBody(status: 503, contentLength: nil) }) { server in
            let started = ContinuousClock.now
            let result = await fetch(makeUpstream(url: server.url, timeout: .seconds(40)))
            #expect(result == .failure(.upstreamFailed(status: 503)))
            #expect(ContinuousClock.now - started < .seconds(2))
            try await Self.expectTransferStopped(server)
        }
    }

    /// The client hung up (the fake's writes fail instead of going on until the timeout), and only a bounded
    /// amount got through before: what the client read plus what the socket buffers on both sides held. Under
    /// 8 MiB, where a transfer that reads on after the refusal lets tens of megabytes through.
    private static func expectTransferStopped(_ server: HostileUpstream) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while server.streamsEnded == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.streamsEnded == 1)
        #expect(server.streamedBytes < 8 << 20, "bytes written before the client hung up: \(server.streamedBytes)")
    }

    @Test("a 64 KiB body exactly is read whole")
    func bodyAtLimit() async throws {
        let prefix = #"{"expiresIn":3600,"token":"tok","pad":""#
        let padding = String(repeating: "p", count: MossHTTPUpstream.maximumBodyBytes - prefix.utf8.count - 2)
        let body = prefix + padding + #""}"#
        #expect(body.utf8.count == MossHTTPUpstream.maximumBodyBytes)
        try await withServer({ _ in .init(status: 200, body: body) }) { server in
            let result = await fetch(makeUpstream(url: server.url))
            #expect(result == .success(MossProjectToken(token: "tok", expiresIn: 3600)))
        }
    }

    @Test("an upstream slower than the timeout is unavailable (503), within the deadline")
    func slowUpstream() async throws {
        let reply = FakeUpstream.Answer(
            status: 200,
            body: #"{"token":"late","expiresIn":3600}"#,
            delay: .seconds(5)
        )
        try await withServer({ _ in reply }) { server in
            let started = ContinuousClock.now
            let result = await fetch(makeUpstream(url: server.url, timeout: .milliseconds(300)))
            let elapsed = ContinuousClock.now - started
            #expect(result == .failure(.upstreamUnavailable))
            #expect(elapsed >= .milliseconds(250))
            #expect(elapsed < .seconds(3))
            #expect(MossError.upstreamUnavailable.httpStatus == 503)
            #expect(MossError.upstreamUnavailable.errorCode == "unavailable")
        }
    }

    @Test("an answer that is not HTTP is unavailable (503), like any other transport failure")
    func notHTTP() async throws {
        let result = try await withHostileServer({ _ in .raw("SSH-2.0-OpenSSH_9.2\r\nnot http at all\r\n\r\n") }) {
            server in
            await fetch(makeUpstream(url: server.url))
        }
        #expect(result == .failure(.upstreamUnavailable))
    }

    @Test("an upstream that closes without answering is unavailable (503)")
    func closesWithoutAnswer() async throws {
        let result = try await withHostileServer({ _ in .closeWithoutAnswer }) { server in
            await fetch(makeUpstream(url: server.url))
        }
        #expect(result == .failure(.upstreamUnavailable))
    }

    @Test("a port nobody listens on is unavailable (503)")
    func connectionRefused() async throws {
        let port = try RawHTTP.deadPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/identity/auth/token"))
        #expect(await fetch(makeUpstream(url: url)) == .failure(.upstreamUnavailable))
    }

    @Test("cancelling the caller ends the exchange at once and closes the connection")
    func cancellation() async throws {
        try await withHostileServer({ _ in .stall(.seconds(30)) }) { server in
            let upstream = makeUpstream(url: server.url, timeout: .seconds(30))
            let started = ContinuousClock.now
            let task = Task { await fetch(upstream) }
            while server.callCount == 0 { await Task.yield() }
            task.cancel()
            #expect(await task.value == .failure(.upstreamUnavailable))
            #expect(ContinuousClock.now - started < .seconds(10))
            // The transfer is abandoned too: the connection closes long before the upstream would answer.
            let deadline = ContinuousClock.now + .seconds(10)
            while server.hangUps == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.hangUps == 1)
        }
    }

    @Test("the cache over real HTTP: concurrent callers, one call; a failed call is retried after the backoff")
    func cacheEndToEnd() async throws {
        let script: @Sendable (Int) -> FakeUpstream.Answer = { index in
            index == 0
                ? .init(status: 200, body: #"{"token":"tok-1","expiresIn":3600}"#, delay: .milliseconds(200))
                : .init(status: 401, body: #"{"error":"bad key"}"#)
        }
        try await withServer(script) { server in
            let handler = InMemoryLogHandler()
            var logger = Logger(label: "test.moss", factory: { _ in handler })
            logger.logLevel = .trace
            let clock = MossTestClock()
            let cache = MossTokenCache(upstream: makeUpstream(url: server.url), logger: logger) { clock.now }
            let tokens = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<200 { group.addTask { try? await cache.token().token } }
                return await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(tokens.count == 200)
            #expect(tokens.allSatisfy { $0 == "tok-1" })
            #expect(server.callCount == 1)

            clock.advance(by: .seconds(3540))
            await #expect(throws: MossError.upstreamRejected(status: 401)) { try await cache.token() }
            await #expect(throws: MossError.coolingDown(retryAfterSeconds: 1)) { try await cache.token() }
            #expect(server.callCount == 2)
            clock.advance(by: .seconds(1))
            await #expect(throws: MossError.upstreamRejected(status: 401)) { try await cache.token() }
            #expect(server.callCount == 3)
            #expect(!handler.entries.map { "\($0.message) \($0.metadata)" }.joined().contains(mossTestProjectKey))
        }
    }
}
