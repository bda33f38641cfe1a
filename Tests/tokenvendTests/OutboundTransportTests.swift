import AuthAPI
import Foundation
import HTTPServerTesting
import OutboundHTTP
import Testing
import TokenClientCore
import TokenServiceTesting

@testable import tokenvend

/// The client commands' transport against a loopback server: what goes out, what comes back, and when it gives up.
@Suite("OutboundTransport", .tags(.integration), .timeLimit(.minutes(1)))
struct OutboundTransportTests {
    @Test("sends the method, header fields and body, and returns the status, header fields and body")
    func roundTrip() async throws {
        let answer = FakeUpstream.Answer(
            status: 201, body: #"{"token":"t"}"#, headers: ["Retry-After": "7", "X-Trace": "abc"])
        try await withFakeUpstream(always: answer) { upstream in
            var request = TransportRequest(method: "POST", url: upstream.url, body: Data(#"{"a":1}"#.utf8))
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer access-1", forHTTPHeaderField: "Authorization")

            let (data, response) = try await OutboundTransport().send(request)

            #expect(response.statusCode == 201)
            #expect(String(decoding: data, as: UTF8.self) == #"{"token":"t"}"#)
            #expect(response.value(forHTTPHeaderField: "retry-after") == "7")
            #expect(response.value(forHTTPHeaderField: "X-TRACE") == "abc")
            #expect(response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
            #expect(response.url == upstream.url)
            let received = try #require(upstream.requests.first)
            #expect(received.method == "POST")
            #expect(received.target == "/identity/auth/token")
            #expect(received.headers["authorization"] == "Bearer access-1")
            #expect(received.headers["content-type"] == "application/json")
            #expect(received.body == Array(#"{"a":1}"#.utf8))
        }
    }

    @Test("an error status is an answer, not an error")
    func errorStatus() async throws {
        let answer = FakeUpstream.Answer(status: 401, body: #"{"error":"invalid_token","message":"no"}"#)
        try await withFakeUpstream(always: answer) { upstream in
            let (data, response) = try await OutboundTransport().send(TransportRequest(url: upstream.url))
            #expect(response.statusCode == 401)
            #expect(String(decoding: data, as: UTF8.self).contains("invalid_token"))
        }
    }

    @Test("the request's timeout is the deadline of the exchange")
    func timeout() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "{}", delay: .seconds(30))) { upstream in
            let request = TransportRequest(url: upstream.url, timeoutInterval: 0.3)
            await #expect(throws: OutboundHTTPError.timedOut) { try await OutboundTransport().send(request) }
        }
    }

    @Test("an AuthSession sends its bearer requests through it")
    func session() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: #"{"token":"t","expiresIn":60}"#)) { upstream in
            let root = try #require(URL(string: "http://127.0.0.1:\(upstream.port)/identity/auth/"))
            let tokens = StoredTokens(
                accessToken: "access-1", refreshToken: "refresh-1", accessTokenExpiresAt: Date().addingTimeInterval(600)
            )
            let session = AuthSession(
                baseURL: root, transport: OutboundTransport(), store: InMemoryTokenStore(tokens))

            let answer = try await session.json(session.makeRequest("GET", "token"), as: VendedToken.self)

            #expect(answer.token == "t")
            #expect(upstream.requests.first?.headers["authorization"] == "Bearer access-1")
            #expect(upstream.requests.first?.headers["accept"] == "application/json")
        }
    }

    @Test("a refused connection is an error that names it")
    func refused() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/auth/login"))
        await #expect(throws: OutboundHTTPError.connectionRefused) {
            try await OutboundTransport().send(TransportRequest(method: "POST", url: url))
        }
    }

    @Test("a redirect within the origin is followed, with the credentials")
    func redirectWithinOrigin() async throws {
        let script: @Sendable (Int) -> FakeUpstream.Answer = { index in
            index == 0
                ? .init(status: 307, body: "", headers: ["Location": "/identity/auth/token?again"])
                : .init(status: 200, body: #"{"ok":true}"#)
        }
        try await withFakeUpstream(script: script) { upstream in
            var request = TransportRequest(method: "POST", url: upstream.url, body: Data("{}".utf8))
            request.setValue("Bearer access-1", forHTTPHeaderField: "Authorization")
            let (_, response) = try await OutboundTransport().send(request)
            #expect(response.statusCode == 200)
            #expect(upstream.requests.map(\.target) == ["/identity/auth/token", "/identity/auth/token?again"])
            #expect(upstream.requests.last?.headers["authorization"] == "Bearer access-1")
            #expect(upstream.requests.last?.body == Array("{}".utf8))
        }
    }

    @Test("a redirect to another origin is refused: the credentials stay with the named server")
    func redirectElsewhere() async throws {
        let away = FakeUpstream.Answer(status: 302, body: "", headers: ["Location": "http://localhost:1/elsewhere"])
        try await withFakeUpstream(always: away) { upstream in
            await #expect(throws: OutboundHTTPError.redirectRefused) {
                try await OutboundTransport().send(TransportRequest(url: upstream.url))
            }
        }
    }

    @Test("an answer over the body limit is refused")
    func tooLarge() async throws {
        let big = FakeUpstream.Answer(status: 200, body: String(repeating: "x", count: 4096))
        try await withFakeUpstream(always: big) { upstream in
            var transport = OutboundTransport()
            transport.maximumBodyBytes = 1024
            await #expect(throws: OutboundHTTPError.tooLarge) {
                try await transport.send(TransportRequest(url: upstream.url))
            }
        }
    }

    @Test("a URL that is not http or https is refused before anything is sent")
    func refusedURL() async throws {
        let url = try #require(URL(string: "ftp://127.0.0.1/x"))
        await #expect(throws: OutboundHTTPError.refusedURL) {
            try await OutboundTransport().send(TransportRequest(url: url))
        }
    }

    @Test("a cancelled caller gets CancellationError")
    func cancelled() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: "{}", delay: .seconds(30))) { upstream in
            let task = Task { try await OutboundTransport().send(TransportRequest(url: upstream.url)) }
            while upstream.callCount == 0 { await Task.yield() }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
    }

    @Test(
        "deadlines are the request's seconds, at least a millisecond",
        arguments: [
            (60.0, Duration.seconds(60)), (0.25, .milliseconds(250)), (0, .milliseconds(1)), (-3, .milliseconds(1)),
            (.infinity, .milliseconds(1)), (1e12, .seconds(86_400)),
        ])
    func deadline(seconds: Double, expected: Duration) {
        #expect(OutboundTransport.deadline(seconds: seconds) == expected)
    }
}
