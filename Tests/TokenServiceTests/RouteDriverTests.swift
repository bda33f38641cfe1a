import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// The socket-free driver (``TestServer/Mode/router``) stands in for the wire only where it answers as the
/// listening server does.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct RouteDriverTests {
    /// A request and the header fields whose values both modes must agree on.
    struct Probe: Sendable, CustomTestStringConvertible {
        var method: String
        var path: String
        var headers: [String: String] = [:]
        var json: String?
        var compared: [String] = ["content-type", "cache-control"]

        var testDescription: String { "\(method) \(path)" }
    }

    static let probes: [Probe] = [
        Probe(method: "GET", path: "/healthz"),
        Probe(method: "HEAD", path: "/healthz"),
        Probe(method: "GET", path: "/no-such-route"),
        Probe(method: "DELETE", path: "/healthz", compared: ["content-type", "allow"]),
        Probe(method: "GET", path: "/auth/me", compared: ["content-type", "www-authenticate"]),
        Probe(method: "POST", path: "/auth/login", json: "{"),
        Probe(method: "POST", path: "/auth/register", headers: ["Content-Type": "text/plain"], json: "{}"),
        Probe(
            method: "POST", path: "/auth/register",
            json: #"{"email":"not-an-email","password":"correct horse battery"}"#),
        Probe(method: "GET", path: "/healthz", headers: ["X-Request-Id": "probe-1234"], compared: ["x-request-id"]),
    ]

    @Test("router mode answers as the listening server does: status, body and headers", arguments: probes)
    func parity(probe: Probe) async throws {
        let socket = try await withTestServer(mode: .socket) { server in
            try await server.request(probe.method, probe.path, headers: probe.headers, json: probe.json)
        }
        let router = try await withTestServer(mode: .router) { server in
            try await server.request(probe.method, probe.path, headers: probe.headers, json: probe.json)
        }
        #expect(router.status == socket.status)
        #expect(router.text == socket.text)
        for name in probe.compared {
            #expect(router.headers[name] == socket.headers[name], "\(name)")
        }
    }

    @Test("router mode records each answer in the metrics, as the server's observer does")
    func metrics() async throws {
        try await withTestServer(mode: .router) { server in
            let first = try await server.request("GET", "/healthz")
            let second = try await server.request("GET", "/healthz")
            let missing = try await server.request("GET", "/no-such-route")
            #expect(first.status == 200)
            #expect(second.status == 200)
            #expect(missing.status == 404)
            #expect(server.server.metrics.requests.value("/healthz", "GET", "200") == 2)
            #expect(server.port == 0)
        }
    }

    @Test("router mode runs the whole account flow without a socket: register, log in, me, refresh, logout")
    func accountFlow() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp()
            let me = try await server.request("GET", "/auth/me", headers: user.bearer)
            #expect(me.status == 200)
            #expect(try me.object()["sub"] as? String == user.userID)
            let refreshed = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(user.refreshToken)"}"#)
            #expect(refreshed.status == 200)
            let logout = try await server.request("POST", "/auth/logout", headers: user.bearer)
            #expect(logout.status == 204)
            #expect(try await server.request("GET", "/auth/me", headers: user.bearer).status == 401)
        }
    }
}
