import Foundation
import Testing
import TokenService
import TokenServiceTesting

@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct StreamTokenTests {
    /// Checks a stream JWT without any of the project's code (``IndependentJWS``: SHA-512 and HMAC written out
    /// in the test support, JSON and base64 from Foundation); `scripts/jose-interop.sh` checks one with PyJWT.
    static func verifyIndependently(_ token: String, secret: String) throws -> (header: String, payload: [String: Any])
    {
        try IndependentJWS.verify(token, secret: secret)
    }

    @Test("the stream JWT has the exact header, exp/iat/ids claims, and verifies with the configured secret")
    func issuesBloomreachToken() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp(email: "stream@example.com")
            let response = try await server.request("POST", "/stream-token", headers: user.bearer)
            #expect(response.status == 200)
            #expect(response.headers["cache-control"] == "no-store")
            let body = try response.object()
            #expect(body["expiresIn"] as? Int == 900)
            let token = try #require(body["token"] as? String)
            let (header, payload) = try Self.verifyIndependently(token, secret: TestServer.streamSecret)
            #expect(header == #"{"alg":"HS512","typ":"JWT","kid":"stream-1"}"#)
            let exp = try #require(payload["exp"] as? Int)
            let iat = try #require(payload["iat"] as? Int)
            #expect(exp - iat == 900)
            #expect(abs(Double(iat) - Date().timeIntervalSince1970) < 60)
            #expect(payload["ids"] as? [String: String] == ["registered": user.userID])
            #expect(Set(payload.keys) == ["exp", "iat", "ids"])
        }
    }

    @Test("requested ids must all be the caller's, else 403 and nothing is signed")
    func scopeCheck() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp(email: "owner@example.com")
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            try await accounts.setCustomerID(email: user.email, key: "crm", value: "C-42")
            accounts.close()
            let subset = try await TestBackend.afterOtherStoreChange {
                try await server.request(
                    "POST", "/stream-token", headers: user.bearer, json: #"{"customerIds":{"crm":"C-42"}}"#)
            } until: {
                $0.status == 200
            }
            #expect(subset.status == 200)
            let token = try #require(try subset.object()["token"] as? String)
            #expect(
                try Self.verifyIndependently(token, secret: TestServer.streamSecret).payload["ids"] as? [String: String]
                    == ["crm": "C-42"])
            let all = try await server.request("POST", "/stream-token", headers: user.bearer)
            let allToken = try #require(try all.object()["token"] as? String)
            #expect(
                try Self.verifyIndependently(allToken, secret: TestServer.streamSecret).payload["ids"]
                    as? [String: String]
                    == ["crm": "C-42", "registered": user.userID])
            for body in [
                #"{"customerIds":{"registered":"someone@example.com"}}"#,
                #"{"customerIds":{"crm":"C-42","registered":"x@example.com"}}"#,
                #"{"customerIds":{"unknown":"1"}}"#,
            ] {
                let refused = try await server.request("POST", "/stream-token", headers: user.bearer, json: body)
                #expect(refused.status == 403)
                #expect(refused.errorCode == "insufficient_scope")
            }
            #expect(server.server.metrics.tokensIssued.value(.stream) == 2)
            let bad = try await server.request(
                "POST", "/stream-token", headers: user.bearer, json: #"{"customerIds":{"crm":42}}"#)
            #expect(bad.status == 400)
        }
    }

    @Test("customerIds must be an object when present: null, a string or an array is 400 and nothing is signed")
    func customerIdsType() async throws {
        try await withTestServer(mode: .router) { server in
            let user = try await server.signUp(email: "typed@example.com")
            for body in [#"{"customerIds":null}"#, #"{"customerIds":"typed@example.com"}"#, #"{"customerIds":[]}"#] {
                let refused = try await server.request("POST", "/stream-token", headers: user.bearer, json: body)
                #expect(refused.status == 400, "\(body)")
                #expect(refused.errorCode == "invalid_request", "\(body)")
            }
            #expect(server.server.metrics.tokensIssued.value(.stream) == 0)
            let empty = try await server.request("POST", "/stream-token", headers: user.bearer, json: "{}")
            #expect(empty.status == 200)
        }
    }

    @Test("the active kid of a key ring signs, so keys rotate without downtime")
    func keyRotation() async throws {
        let second = "second-secret-second-secret-second-secret-second-secret-second-secret"
        let ring =
            #"[{"kid":"stream-1","secret":"\#(TestServer.streamSecret)"},{"kid":"stream-2","secret":"\#(second)"}]"#
        try await withTestServer(
            mode: .router,
            environment: [
                "TOKENVEND_STREAM_KEYS": ring, "TOKENVEND_STREAM_ACTIVE_KID": "stream-2",
            ]
        ) {
            server in
            let user = try await server.signUp()
            let response = try await server.request("POST", "/stream-token", headers: user.bearer)
            let token = try #require(try response.object()["token"] as? String)
            let (header, _) = try Self.verifyIndependently(token, secret: second)
            #expect(header == #"{"alg":"HS512","typ":"JWT","kid":"stream-2"}"#)
        }
    }

    @Test("a logged-out or disabled caller gets 401 and nothing is signed")
    func revokedCallers() async throws {
        try await withTestServer(mode: .router) { server in
            let loggedOut = try await server.signUp()
            _ = try await server.request("POST", "/auth/logout", headers: loggedOut.bearer)
            #expect(try await server.request("POST", "/stream-token", headers: loggedOut.bearer).status == 401)
            let disabled = try await server.signUp()
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            _ = try await accounts.disable(email: disabled.email)
            accounts.close()
            #expect(try await server.request("POST", "/stream-token", headers: disabled.bearer).status == 401)
            #expect(server.server.metrics.tokensIssued.value(.stream) == 0)
        }
    }

    @Test("no stream key configured: 503 unavailable")
    func notConfigured() async throws {
        try await withTestServer(mode: .router, environment: ["TOKENVEND_STREAM_KEYS": "[]"]) { server in
            let user = try await server.signUp()
            let response = try await server.request("POST", "/stream-token", headers: user.bearer)
            #expect(response.status == 503)
            #expect(response.errorCode == "unavailable")
            #expect(response.headers["retry-after"] != nil)
        }
    }

    @Test("the lifetime follows stream.ttlSeconds")
    func lifetime() async throws {
        try await withTestServer(mode: .router, environment: ["TOKENVEND_STREAM_TTL_SECONDS": "120"]) { server in
            let user = try await server.signUp()
            let response = try await server.request("POST", "/stream-token", headers: user.bearer)
            #expect(try response.object()["expiresIn"] as? Int == 120)
        }
    }
}
