import AuthAPI
import Foundation
import HTTPServerTesting
import Testing
import TokenClient
import TokenServiceTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSessionTransport` across redirects, against two real HTTP servers on loopback: two ports are two origins.
/// The first answers with a redirect, the second records the header fields it received.
@Suite("URLSessionTransport across redirects", .tags(.integration), .timeLimit(.minutes(1)))
struct URLSessionRedirectTests {
    /// Header fields a request carries, credentials and not.
    static let headers = [
        "Authorization": "Bearer access-secret", "Cookie": "sid=cookie-secret", "DPoP": "proof-secret",
        "X-Request-Trace": "kept",
    ]

    /// A `method` request to `url` with ``headers`` (and a JSON body unless `GET`).
    private func request(_ method: String, _ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in Self.headers { request.setValue(value, forHTTPHeaderField: name) }
        if method != "GET" {
            request.httpBody = Data(#"{"refreshToken":"refresh-secret"}"#.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    private static let ok = FakeUpstream.Answer(status: 200, body: #"{"ok":true}"#)

    private static func redirect(_ status: Int, to url: URL) -> FakeUpstream.Answer {
        FakeUpstream.Answer(status: status, body: "{}", headers: ["Location": url.absoluteString])
    }

    @Test(
        "a redirect to another origin arrives without Authorization, Cookie or DPoP, other fields kept",
        arguments: [301, 302, 303, 307, 308])
    func crossOriginDropsCredentials(status: Int) async throws {
        try await withFakeUpstream(always: Self.ok) { target in
            try await withFakeUpstream(always: Self.redirect(status, to: target.url)) { origin in
                let (_, response) = try await URLSessionTransport().send(request("GET", origin.url))
                #expect(response.statusCode == 200)
                #expect(origin.requests.first?.headers["authorization"] == "Bearer access-secret")
                let received = try #require(target.requests.first)
                #expect(target.callCount == 1)
                #expect(received.headers["authorization"] == nil)
                #expect(received.headers["cookie"] == nil)
                #expect(received.headers["dpop"] == nil)
                #expect(received.headers["x-request-trace"] == "kept")
            }
        }
    }

    @Test("a redirect within the origin keeps Authorization", arguments: [302, 307])
    func sameOriginKeepsCredentials(status: Int) async throws {
        let port = Locked<Int?>(nil)
        try await withFakeUpstream(script: { index in
            guard index == 0, let port = port.withLock({ $0 }) else { return Self.ok }
            let again = URL(string: "http://127.0.0.1:\(port)/identity/auth/token?again=1")
            return again.map { Self.redirect(status, to: $0) } ?? Self.ok
        }) { origin in
            port.withLock { $0 = origin.port }
            let (_, response) = try await URLSessionTransport().send(request("GET", origin.url))
            #expect(response.statusCode == 200)
            #expect(origin.callCount == 2)
            let second = try #require(origin.requests.last)
            #expect(second.target == "/identity/auth/token?again=1")
            #expect(second.headers["authorization"] == "Bearer access-secret")
            #expect(second.headers["dpop"] == "proof-secret")
        }
    }

    @Test(
        "a 307 or 308 of a POST to another origin is not followed: the body never leaves, the caller gets the 3xx",
        arguments: [307, 308])
    func crossOriginBodyIsNotResent(status: Int) async throws {
        try await withFakeUpstream(always: Self.ok) { target in
            try await withFakeUpstream(always: Self.redirect(status, to: target.url)) { origin in
                let (_, response) = try await URLSessionTransport().send(request("POST", origin.url))
                #expect(response.statusCode == status)
                #expect(origin.callCount == 1)
                #expect(target.callCount == 0)
            }
        }
    }

    @Test("a signed-in session's request redirected to another origin does not take the bearer along")
    func sessionBearerStaysHome() async throws {
        try await withFakeUpstream(always: Self.ok) { target in
            try await withFakeUpstream(always: Self.redirect(302, to: target.url)) { origin in
                let base = try #require(URL(string: "http://127.0.0.1:\(origin.port)/"))
                let session = AuthSession(
                    baseURL: base,
                    store: InMemoryTokenStore(
                        StoredTokens(
                            accessToken: "access-secret", refreshToken: "refresh-secret",
                            accessTokenExpiresAt: Date().addingTimeInterval(900))))
                let (_, response) = try await session.send(URLRequest(url: origin.url))
                #expect(response.statusCode == 200)
                #expect(origin.requests.first?.headers["authorization"] == "Bearer access-secret")
                #expect(target.callCount == 1)
                #expect(target.requests.first?.headers["authorization"] == nil)
            }
        }
    }
}
