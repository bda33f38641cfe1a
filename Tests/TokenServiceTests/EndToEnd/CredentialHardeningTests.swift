import Cryptography
import Foundation
import JWT
import StrictJSON
import Testing
import TokenService
import TokenServiceTesting

/// Logout scopes that reach other sessions, the form of the `Authorization` field, and the lifetime of an
/// access token.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct CredentialHardeningTests {
    private func refresh(_ server: TestServer, _ token: String) async throws -> TestResponse {
        try await server.request("POST", "/auth/refresh", json: #"{"refreshToken":"\#(token)"}"#)
    }

    private func logout(_ server: TestServer, scope: String, refreshToken: String) async throws -> TestResponse {
        try await server.request(
            "POST", "/auth/logout?scope=\(scope)", json: #"{"refreshToken":"\#(refreshToken)"}"#)
    }

    @Test("a spent refresh token cannot log out other sessions: 401 invalid_grant, nothing revoked")
    func spentRefreshToken() async throws {
        try await withTestServer(environment: ["TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "0"]) { server in
            let first = try await server.signUp()
            let rotated = try await refresh(server, first.refreshToken)
            #expect(rotated.status == 200)
            let liveRefresh = try #require(try rotated.object()["refreshToken"] as? String)
            let later = try await server.logIn(email: first.email)
            for scope in ["global", "others"] {
                let response = try await logout(server, scope: scope, refreshToken: first.refreshToken)
                #expect(response.status == 401)
                #expect(response.errorCode == "invalid_grant")
            }
            #expect(try await server.request("GET", "/auth/me", headers: later.bearer).status == 200)
            #expect(try await refresh(server, liveRefresh).status == 200)
            // scope=local stays idempotent for a spent token.
            #expect(try await logout(server, scope: "local", refreshToken: first.refreshToken).status == 204)
        }
    }

    @Test("an expired access token of a revoked session cannot log out later sessions: 401, nothing revoked")
    func expiredTokenOfRevokedSession() async throws {
        let clock = TestClock()
        try await withTestServer(now: clock.now) { server in
            let first = try await server.signUp()
            #expect(try await server.request("POST", "/auth/logout", headers: first.bearer).status == 204)
            let later = try await server.logIn(email: first.email)
            clock.advance(by: 900 + 31)
            for scope in ["global", "others"] {
                let response = try await server.request("POST", "/auth/logout?scope=\(scope)", headers: first.bearer)
                #expect(response.status == 401)
                #expect(response.errorCode == "invalid_token")
                #expect(response.headers["www-authenticate"] == #"Bearer realm="tokenvend", error="invalid_token""#)
            }
            #expect(try await refresh(server, later.refreshToken).status == 200)
            // scope=local stays idempotent: the session is already gone, 204.
            #expect(try await server.request("POST", "/auth/logout", headers: first.bearer).status == 204)
        }
    }

    @Test("an unexpired access token of a revoked session cannot log out other sessions either")
    func revokedSessionToken() async throws {
        try await withTestServer { server in
            let first = try await server.signUp()
            let second = try await server.logIn(email: first.email)
            #expect(try await server.request("POST", "/auth/logout", headers: first.bearer).status == 204)
            let global = try await server.request("POST", "/auth/logout?scope=global", headers: first.bearer)
            #expect(global.status == 401)
            #expect(try await server.request("GET", "/auth/me", headers: second.bearer).status == 200)
        }
    }

    @Test("the live refresh token or a live access token may log out the other sessions")
    func liveCredentials() async throws {
        try await withTestServer { server in
            let first = try await server.signUp()
            let second = try await server.logIn(email: first.email)
            let third = try await server.logIn(email: first.email)
            #expect(try await logout(server, scope: "others", refreshToken: third.refreshToken).status == 204)
            #expect(try await server.request("GET", "/auth/me", headers: first.bearer).status == 401)
            #expect(try await server.request("GET", "/auth/me", headers: second.bearer).status == 401)
            #expect(try await server.request("GET", "/auth/me", headers: third.bearer).status == 200)
            // A dead access token next to the live refresh token: the refresh token proves the session.
            let mixed = try await server.request(
                "POST", "/auth/logout?scope=global", headers: first.bearer,
                json: #"{"refreshToken":"\#(third.refreshToken)"}"#)
            #expect(mixed.status == 204)
            #expect(try await server.request("GET", "/auth/me", headers: third.bearer).status == 401)
        }
    }

    @Test("two Authorization fields, or Bearer without a token, are 400 invalid_request")
    func malformedAuthorization() async throws {
        try await withTestServer { server in
            let user = try await server.signUp()
            let bearer = ("Authorization", "Bearer \(user.accessToken)")
            let cases: [(String, String, [(String, String)])] = [
                ("GET", "/auth/me", [bearer, bearer]),
                ("GET", "/auth/me", [bearer, ("Authorization", "Basic YTpi")]),
                ("POST", "/stream-token", [bearer, bearer]),
                ("POST", "/auth/logout", [bearer, bearer]),
                ("GET", "/auth/me", [("Authorization", "Bearer")]),
                ("GET", "/auth/me", [("Authorization", "bearer   ")]),
                ("GET", "/moss-token", [("Authorization", "Bearer")]),
                ("POST", "/auth/logout?scope=global", [("Authorization", "Bearer")]),
            ]
            for (method, path, headers) in cases {
                let response = try await FreshConnection.request(port: server.port, method, path, headers: headers)
                #expect(response.status == 400, "\(method) \(path) \(headers.map(\.1))")
                #expect(response.errorCode == "invalid_request")
            }
            // One well-formed field still works, another scheme is still 401.
            let one = try await FreshConnection.request(port: server.port, "GET", "/auth/me", headers: [bearer])
            #expect(one.status == 200)
            let basic = try await FreshConnection.request(
                port: server.port, "GET", "/auth/me", headers: [("Authorization", "Basic YTpi")])
            #expect(basic.status == 401)
            // The session survived the refused logouts.
            #expect(try await server.request("GET", "/auth/me", headers: user.bearer).status == 200)
        }
    }

    /// An access token for `user`'s session signed with the server's own key, with the given `iat` and `exp`.
    private func forged(_ server: TestServer, _ user: Login, issuedAt: Int64?, expiresAt: Int64) throws -> String {
        let payload = try #require(user.accessToken.split(separator: ".").dropFirst().first)
        let json = try #require(Base64URL.decode(String(payload)))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        let key = try #require(server.configuration.accessToken.keys.first)
        let keys = try JWTKeySet(
            keys: [try HMACKey(kid: key.kid, algorithm: .hs512, secret: key.secret.value)], signingKID: key.kid)
        var claims: JWTClaims = [
            "iss": "tokenvend", "aud": "tokenvend", "sub": .string(user.userID),
            "sid": .string(try #require(object["sid"] as? String)), "exp": .integer(expiresAt),
            "jti": .string(UUID().uuidString), "email": .string(user.email), "role": "user", "tenantId": .null,
        ]
        if let issuedAt { claims.object["iat"] = .integer(issuedAt) }
        return try keys.signer(header: .standard(type: "at+jwt")).sign(claims)
    }

    @Test("an access token that lives longer than ttlSeconds plus the leeway is 401 invalid_token")
    func longLivedToken() async throws {
        try await withTestServer { server in
            let user = try await server.signUp()
            let now = Int64(Date().timeIntervalSince1970)
            func me(_ token: String) async throws -> TestResponse {
                try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(token)"])
            }
            let atLimit = try forged(server, user, issuedAt: now - 10, expiresAt: now - 10 + 900 + 30)
            #expect(try await me(atLimit).status == 200)
            for token in [
                try forged(server, user, issuedAt: now - 10, expiresAt: now - 10 + 900 + 31),
                try forged(server, user, issuedAt: now, expiresAt: now + 365 * 86_400),
                try forged(server, user, issuedAt: nil, expiresAt: now + 600),
            ] {
                let response = try await me(token)
                #expect(response.status == 401)
                #expect(response.errorCode == "invalid_token")
            }
        }
    }
}
