import Foundation
import HTTPServerTesting
import Testing
import TokenServiceTesting

@testable import TokenService

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct MossEndpointTests {
    static let projectKey = "moss-project-key-that-must-never-leak-0123456789"

    private func environment(_ url: URL) -> [String: String] {
        [
            "TOKENVEND_MOSS_PROJECT_ID": "project-1", "TOKENVEND_MOSS_PROJECT_KEY": Self.projectKey,
            "TOKENVEND_MOSS_AUTH_URL": url.absoluteString,
        ]
    }

    @Test("serves the project token from the Moss auth service with expiresIn less the 60 s margin")
    func vendsProjectToken() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: #"{"token":"moss-abc","expiresIn":3600}"#)) {
            upstream in
            try await withTestServer(environment: environment(upstream.url)) { server in
                let user = try await server.signUp()
                let response = try await server.request("GET", "/moss-token", headers: user.bearer)
                #expect(response.status == 200)
                #expect(response.headers["cache-control"] == "no-store")
                let body = try response.object()
                #expect(body["token"] as? String == "moss-abc")
                let expiresIn = try #require(body["expiresIn"] as? Int)
                #expect((3530...3540).contains(expiresIn))
                let sent = try #require(upstream.requests.first)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: String])
                #expect(json == ["projectId": "project-1", "projectKey": Self.projectKey])
                #expect(!server.logs().contains(Self.projectKey))
            }
        }
    }

    @Test("a moss-preset vendor at POST /vend/{vendor} fetches and caches like /moss-token, with expiresAt")
    func mossPresetVendor() async throws {
        try await withFakeUpstream(always: .init(status: 200, body: #"{"token":"moss-vend","expiresIn":3600}"#)) {
            upstream in
            let vendors =
                #"{"search": {"preset": "moss", "projectId": "project-2", "projectKey": "\#(Self.projectKey)", "#
                + #""authURL": "\#(upstream.url.absoluteString)"}}"#
            try await withTestServer(environment: ["TOKENVEND_VENDORS": vendors]) { server in
                let user = try await server.signUp()
                for _ in 0..<3 {
                    let response = try await server.request("POST", "/vend/search", headers: user.bearer)
                    #expect(response.status == 200)
                    #expect(response.headers["cache-control"] == "no-store")
                    let body = try response.object()
                    #expect(body["token"] as? String == "moss-vend")
                    let expiresIn = try #require(body["expiresIn"] as? Int)
                    let expiresAt = try #require(body["expiresAt"] as? Int)
                    #expect(abs(expiresAt - Int(Date().timeIntervalSince1970) - expiresIn) <= 2)
                }
                #expect(upstream.requests.count == 1)
                let sent = try #require(upstream.requests.first)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: String])
                #expect(json == ["projectId": "project-2", "projectKey": Self.projectKey])
                #expect(server.server.metrics.vendedTokens(vendor: "search").value() == 3)
                #expect(!server.logs().contains(Self.projectKey))
                let anonymous = try await server.request("POST", "/vend/search")
                #expect(anonymous.status == 401)
            }
        }
    }

    @Test("100 concurrent callers at a cold start cause exactly one upstream call")
    func coalescesColdStart() async throws {
        let answer = FakeUpstream.Answer(
            status: 200, body: #"{"token":"moss-shared","expiresIn":3600}"#, delay: .milliseconds(200))
        try await withFakeUpstream(always: answer) { upstream in
            try await withTestServer(environment: environment(upstream.url)) { server in
                let user = try await server.signUp()
                let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
                    for _ in 0..<100 {
                        group.addTask {
                            try await server.request("GET", "/moss-token", headers: user.bearer).object()["token"]
                                as? String
                        }
                    }
                    return try await group.reduce(into: [String?]()) { $0.append($1) }
                }
                #expect(tokens.allSatisfy { $0 == "moss-shared" })
                #expect(upstream.callCount == 1)
            }
        }
    }

    @Test(
        "upstream refusal or garbage is 502, an unreachable upstream 503; then 503 at once for the 1 s backoff",
        arguments: [
            (HostileUpstream.Behaviour.answer(status: 401, body: "{}"), 502),
            (.answer(status: 500, body: "oops"), 502),
            (.answer(status: 200, body: "<html>"), 502),
            (.closeWithoutAnswer, 503),
        ])
    func upstreamFailures(behaviour: HostileUpstream.Behaviour, status: Int) async throws {
        // Raw, so one upstream can fail the first way and then recover: HTTPServer cannot close unanswered.
        let upstream = try HostileUpstream(script: { index in
            index == 0 ? behaviour : .answer(status: 200, body: #"{"token":"moss-later","expiresIn":3600}"#)
        })
        defer { upstream.shutdown() }
        try await withTestServer(environment: environment(upstream.url)) { server in
            let user = try await server.signUp()
            let failed = try await server.request("GET", "/moss-token", headers: user.bearer)
            #expect(failed.status == status)
            #expect(failed.errorCode == (status == 502 ? "upstream_error" : "unavailable"))
            #expect(!failed.text.contains(Self.projectKey))
            // Within the backoff: 503 at once, without another upstream call.
            let backingOff = try await server.request("GET", "/moss-token", headers: user.bearer)
            #expect(backingOff.status == 503)
            #expect(backingOff.errorCode == "unavailable")
            #expect(backingOff.headers["retry-after"] == "1")
            #expect(upstream.callCount == 1)
            // Retry-After honoured: the next caller probes the upstream, which has recovered.
            try await Task.sleep(for: .seconds(1))
            let next = try await server.request("GET", "/moss-token", headers: user.bearer)
            #expect(try next.object()["token"] as? String == "moss-later")
        }
    }

    @Test("Moss not configured: 503; no access token: 401 before anything else")
    func notConfigured() async throws {
        try await withTestServer { server in
            let user = try await server.signUp()
            let response = try await server.request("GET", "/moss-token", headers: user.bearer)
            #expect(response.status == 503)
            #expect(try await server.request("GET", "/moss-token").status == 401)
        }
    }
}
