import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// `expiresAt` and `refreshExpiresAt` in the token answers: absolute Unix seconds a client can keep across a
/// suspension, where `expiresIn` is relative to a moment the client does not know precisely.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct TokenExpiryAnswerTests {
    /// Refresh tokens slide by an hour; a session lives two hours at most.
    static let environment = [
        "TOKENVEND_REFRESH_TOKEN_TTL_SECONDS": "3600", "TOKENVEND_SESSION_MAX_LIFETIME_SECONDS": "7200",
    ]

    /// The claims of a JWS, read without verifying it.
    static func claims(_ token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        var part = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        let data = try #require(Data(base64Encoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The answer's `expiresAt`, checked to be the access token's `exp` and `expiresIn` after its `iat`.
    static func accessExpiry(_ body: [String: Any], token: String) throws -> Int64 {
        let claims = try claims(token)
        let exp = try #require((claims["exp"] as? NSNumber)?.int64Value)
        let iat = try #require((claims["iat"] as? NSNumber)?.int64Value)
        let expiresAt = try #require((body["expiresAt"] as? NSNumber)?.int64Value)
        #expect(expiresAt == exp)
        #expect(body["expiresIn"] as? Int == Int(exp - iat))
        return expiresAt
    }

    static func refreshExpiry(_ body: [String: Any]) throws -> Int64 {
        try #require((body["refreshExpiresAt"] as? NSNumber)?.int64Value)
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    @Test("login and refresh answers carry expiresAt = exp and a future refreshExpiresAt capped by the session's end")
    func bearerAnswers() async throws {
        let clock = TestClock()
        try await withTestServer(environment: Self.environment, now: clock.now) { server in
            let user = try await server.signUp()
            let started = Self.seconds(clock.current())
            let login = try await server.request(
                "POST", "/auth/login", json: #"{"email":"\#(user.email)","password":"\#(TestServer.password)"}"#)
            let loggedIn = Self.seconds(clock.current()) + 1
            #expect(login.status == 200)
            let loginBody = try login.object()
            _ = try Self.accessExpiry(loginBody, token: try #require(loginBody["accessToken"] as? String))
            // The session began between `started` and `loggedIn`: its absolute end lies two hours later.
            let absoluteEnd = (started + 7200)...(loggedIn + 7200)
            let firstRefreshEnd = try Self.refreshExpiry(loginBody)
            #expect(((started + 3600)...(loggedIn + 3600)).contains(firstRefreshEnd))
            #expect(firstRefreshEnd > loggedIn && firstRefreshEnd <= absoluteEnd.upperBound)

            // 50 minutes on, a refresh slides the refresh expiry by an hour from now.
            clock.advance(by: 3000)
            let before = Self.seconds(clock.current())
            var refreshToken = try #require(loginBody["refreshToken"] as? String)
            let refreshed = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(refreshToken)"}"#)
            let after = Self.seconds(clock.current()) + 1
            #expect(refreshed.status == 200)
            let refreshedBody = try refreshed.object()
            let accessEnd = try Self.accessExpiry(
                refreshedBody, token: try #require(refreshedBody["accessToken"] as? String))
            #expect(((before + 900)...(after + 900)).contains(accessEnd))
            let slidEnd = try Self.refreshExpiry(refreshedBody)
            #expect(((before + 3600)...(after + 3600)).contains(slidEnd))
            #expect(slidEnd > firstRefreshEnd && slidEnd <= absoluteEnd.upperBound)

            // 100 minutes in, an hour more would pass the two-hour cap: the answer names the cap.
            clock.advance(by: 3000)
            let late = Self.seconds(clock.current())
            refreshToken = try #require(refreshedBody["refreshToken"] as? String)
            let capped = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(refreshToken)"}"#)
            #expect(capped.status == 200)
            let cappedBody = try capped.object()
            _ = try Self.accessExpiry(cappedBody, token: try #require(cappedBody["accessToken"] as? String))
            let cappedEnd = try Self.refreshExpiry(cappedBody)
            #expect(absoluteEnd.contains(cappedEnd))
            #expect(cappedEnd > late && cappedEnd < late + 3600)
        }
    }

    @Test("a cookie-mode login answer carries expiresAt = the access cookie's exp and refreshExpiresAt, no tokens")
    func cookieAnswer() async throws {
        let clock = TestClock()
        try await withTestServer(environment: Self.environment, now: clock.now) { server in
            let user = try await server.signUp()
            let started = Self.seconds(clock.current())
            let login = try await server.request(
                "POST", "/auth/login", headers: ["X-Auth-Strategy": "cookie"],
                json: #"{"email":"\#(user.email)","password":"\#(TestServer.password)"}"#)
            let loggedIn = Self.seconds(clock.current()) + 1
            #expect(login.status == 200)
            let body = try login.object()
            #expect(body["accessToken"] == nil && body["refreshToken"] == nil)
            let field = try #require(login.headers["set-cookie"])
            let cookie = try #require(field.range(of: "__Host-access_token="))
            let access = String(field[cookie.upperBound...].prefix { $0 != ";" })
            _ = try Self.accessExpiry(body, token: access)
            #expect(((started + 3600)...(loggedIn + 3600)).contains(try Self.refreshExpiry(body)))
        }
    }
}
