import Foundation
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

/// The client address behind the per-address limit, the access line and the session's `ip`: the peer's
/// address without its port, or what a trusted proxy reports (`server.trustedProxies`).
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct ClientAddressEndToEndTests {
    private static func limit(_ count: Int, trusting proxies: String? = nil) -> [String: String] {
        var environment = ["TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "\(count)"]
        if let proxies { environment["TOKENVEND_SERVER_TRUSTED_PROXIES"] = proxies }
        return environment
    }

    /// A failed login for a new unknown email each time, so the per-account limit never interferes.
    private func failedLogin(_ server: TestServer, _ headers: [(String, String)] = []) async throws -> TestResponse {
        try await FreshConnection.request(
            port: server.port, "POST", "/auth/login", headers: headers,
            json: #"{"email":"nobody-\#(UUID().uuidString.prefix(8))@example.com","password":"wrong password!"}"#)
    }

    private func register(_ server: TestServer, _ index: Int) async throws -> TestResponse {
        try await FreshConnection.request(
            port: server.port, "POST", "/auth/register",
            json: #"{"email":"fresh\#(index)@example.com","password":"\#(TestServer.password)"}"#)
    }

    /// The outer proxy (10.0.0.9) appended the client; the inner one (the loopback peer) appended 10.0.0.9.
    /// What the client wrote itself (6.6.6.x) is left of its own entry and never read.
    private static func chain(_ spoof: Int, _ client: String) -> [(String, String)] {
        [("X-Forwarded-For", "6.6.6.\(spoof), \(client), 10.0.0.9")]
    }

    private static func forwarded(_ node: String) -> [(String, String)] {
        [("Forwarded", #"for="\#(node)";proto=https"#)]
    }

    /// The `client.address` of every access line for `path`, in order.
    private func loggedAddresses(_ server: TestServer, path: String) -> [String] {
        server.logs().split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["http.path"] as? String == path
            else { return nil }
            return object["client.address"] as? String ?? "-"
        }
    }

    @Test("N+1 failed logins on N+1 new connections: the last gets 429 with Retry-After")
    func loginsAcrossConnections() async throws {
        try await withTestServer(environment: Self.limit(3)) { server in
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await failedLogin(server).status) }
            let last = try await failedLogin(server)
            #expect(statuses == [401, 401, 401])
            #expect(last.status == 429)
            #expect(last.errorCode == "too_many_requests")
            let retryAfter = try #require(last.headers["retry-after"].flatMap(Int.init))
            #expect(retryAfter >= 1 && retryAfter <= 60)
            #expect(loggedAddresses(server, path: "/auth/login") == Array(repeating: "127.0.0.1", count: 4))
        }
    }

    @Test("registrations on new connections share the address's allowance with logins")
    func registrationsAcrossConnections() async throws {
        try await withTestServer(environment: Self.limit(3)) { server in
            #expect(try await register(server, 1).status == 201)
            #expect(try await register(server, 2).status == 201)
            #expect(try await failedLogin(server).status == 401)
            let registration = try await register(server, 3)
            #expect(registration.status == 429)
            #expect(registration.headers["retry-after"] != nil)
            #expect(try await failedLogin(server).status == 429)
        }
    }

    @Test("X-Forwarded-For and Forwarded from a peer that is not a trusted proxy are ignored")
    func spoofedHeadersIgnored() async throws {
        try await withTestServer(environment: Self.limit(2, trusting: #"["10.0.0.0/8","2001:db8::/32"]"#)) { server in
            var statuses: [Int] = []
            for index in 0..<3 {
                statuses.append(
                    try await failedLogin(
                        server,
                        [
                            ("X-Forwarded-For", "203.0.113.\(index)"),
                            ("Forwarded", "for=203.0.113.\(index)"),
                        ]
                    ).status)
            }
            #expect(statuses == [401, 401, 429])
            #expect(loggedAddresses(server, path: "/auth/login") == Array(repeating: "127.0.0.1", count: 3))
        }
    }

    @Test("behind two trusted proxies the client is the rightmost untrusted hop: limits, access line, session ip")
    func chainOfTwoProxies() async throws {
        try await withTestServer(environment: Self.limit(3, trusting: #"["127.0.0.1/32","10.0.0.0/8"]"#)) { server in
            let user = try await server.signUp(email: "proxied@example.com")
            let login = try await FreshConnection.request(
                port: server.port, "POST", "/auth/login", headers: Self.chain(0, "203.0.113.5"),
                json: #"{"email":"proxied@example.com","password":"\#(TestServer.password)"}"#)
            #expect(login.status == 200)
            let sessions = try await server.server.backend.sessions.liveSessions(
                userID: user.userID, now: Date(), limit: 100, after: nil)
            #expect(sessions.map(\.ip).contains("203.0.113.5"))
            #expect(try await failedLogin(server, Self.chain(1, "203.0.113.5")).status == 401)
            #expect(try await failedLogin(server, Self.chain(2, "203.0.113.5")).status == 401)
            #expect(try await failedLogin(server, Self.chain(3, "203.0.113.5")).status == 429)
            #expect(try await failedLogin(server, Self.chain(4, "203.0.113.6")).status == 401)
            let logged = loggedAddresses(server, path: "/auth/login")
            #expect(logged.suffix(5) == ["203.0.113.5", "203.0.113.5", "203.0.113.5", "203.0.113.5", "203.0.113.6"])
        }
    }

    @Test("Forwarded with quoted IPv6 nodes: one /64 shares an allowance, another /64 has its own")
    func forwardedIPv6Prefix() async throws {
        try await withTestServer(environment: Self.limit(2, trusting: #"["127.0.0.1"]"#)) { server async throws in
            #expect(try await failedLogin(server, Self.forwarded("[2001:db8:1:2::1]:4711")).status == 401)
            #expect(try await failedLogin(server, Self.forwarded("[2001:db8:1:2:ffff::9]")).status == 401)
            #expect(try await failedLogin(server, Self.forwarded("[2001:db8:1:2::77]:80")).status == 429)
            #expect(try await failedLogin(server, Self.forwarded("[2001:db8:1:3::1]")).status == 401)
            #expect(try await failedLogin(server, Self.forwarded("[::ffff:192.0.2.1]")).status == 401)
            #expect(
                loggedAddresses(server, path: "/auth/login")
                    == ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:2::77", "2001:db8:1:3::1", "192.0.2.1"])
        }
    }

    @Test("malformed forwarding headers from a trusted proxy never fail the request: the peer is the client")
    func malformedHeaders() async throws {
        let values: [(String, String)] = [
            ("X-Forwarded-For", "not-an-address"), ("X-Forwarded-For", ""), ("X-Forwarded-For", "unknown"),
            ("X-Forwarded-For", "[2001:db8::1"), ("X-Forwarded-For", String(repeating: "9,", count: 2000)),
            ("X-Forwarded-For", "1.2.3.4, 999.1.1.1"), ("Forwarded", #"for="unclosed"#), ("Forwarded", "for=_hidden"),
            ("Forwarded", ";;;,,,=;"), ("Forwarded", #"for="[::1]:99999""#), ("Forwarded", #"for="1.2.3.4";for"#),
        ]
        try await withTestServer(environment: Self.limit(1000, trusting: #"["127.0.0.0/8"]"#)) { server in
            for header in values {
                let response = try await failedLogin(server, [header])
                #expect(response.status == 401, "\(header.0): \(header.1.prefix(20))")
            }
            #expect(
                loggedAddresses(server, path: "/auth/login") == Array(repeating: "127.0.0.1", count: values.count))
        }
    }
}
