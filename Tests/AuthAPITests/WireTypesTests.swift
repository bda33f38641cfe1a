import AuthAPI
import Foundation
import Testing

@Suite("AuthAPI wire types")
struct WireTypesTests {
    func object(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a bearer token response uses exactly the API's keys")
    func bearerKeys() throws {
        let user = User(id: "u-1", email: "ada@example.com")
        let json = try object(TokenResponse.bearer(accessToken: "a", refreshToken: "r", expiresIn: 900, user: user))
        #expect(Set(json.keys) == ["accessToken", "refreshToken", "tokenType", "expiresIn", "user"])
        #expect(json["tokenType"] as? String == "Bearer")
        let userJSON = try #require(json["user"] as? [String: Any])
        #expect(Set(userJSON.keys) == ["id", "email", "emailVerified", "role", "tenantId"])
        #expect(userJSON["tenantId"] is NSNull)
        #expect(userJSON["emailVerified"] as? Bool == false)
    }

    @Test("a user from a server before issue 32, without emailVerified, decodes as unverified")
    func userWithoutEmailVerifiedDecodes() throws {
        let old = try JSONDecoder().decode(User.self, from: Data(#"{"id":"u","role":"user","tenantId":null}"#.utf8))
        #expect(old == User(id: "u", email: nil, emailVerified: false))
        let verified = try JSONDecoder().decode(
            User.self,
            from: Data(#"{"id":"u","email":"e@x.io","emailVerified":true,"role":"user","tenantId":null}"#.utf8))
        #expect(verified.emailVerified)
        #expect(try JSONDecoder().decode(User.self, from: try JSONEncoder().encode(verified)) == verified)
    }

    @Test("a cookie-mode answer without tokens decodes")
    func cookieModeDecodes() throws {
        let text = #"{"expiresIn":900,"user":{"id":"u","email":"e@x.io","role":"admin","tenantId":"t"}}"#
        let answer = try JSONDecoder().decode(TokenResponse.self, from: Data(text.utf8))
        #expect(answer.accessToken == nil && answer.refreshToken == nil && answer.tokenType == nil)
        #expect(answer.user == User(id: "u", email: "e@x.io", role: "admin", tenantId: "t"))
        #expect(Set(try object(answer).keys) == ["expiresIn", "user"])
    }

    @Test(
        "a token answer carries expiresAt and refreshExpiresAt through a round trip, and an older one decodes without")
    func tokenResponseExpiries() throws {
        let user = User(id: "u-1", email: "ada@example.com")
        let bearer = TokenResponse.bearer(
            accessToken: "a", refreshToken: "r", expiresIn: 900, expiresAt: 1_800_000_900,
            refreshExpiresAt: 1_802_592_000, user: user)
        #expect(bearer.tokenType == "Bearer")
        #expect(try JSONDecoder().decode(TokenResponse.self, from: try JSONEncoder().encode(bearer)) == bearer)
        let json = try object(bearer)
        #expect(
            Set(json.keys) == [
                "accessToken", "refreshToken", "tokenType", "expiresIn", "expiresAt", "refreshExpiresAt", "user",
            ])
        #expect((json["expiresAt"] as? NSNumber)?.int64Value == 1_800_000_900)
        #expect((json["refreshExpiresAt"] as? NSNumber)?.int64Value == 1_802_592_000)

        let cookie = TokenResponse(
            expiresIn: 900, expiresAt: 1_800_000_900, refreshExpiresAt: 1_802_592_000, user: user)
        #expect(Set(try object(cookie).keys) == ["expiresIn", "expiresAt", "refreshExpiresAt", "user"])
        #expect(try JSONDecoder().decode(TokenResponse.self, from: try JSONEncoder().encode(cookie)) == cookie)

        let current =
            #"{"expiresIn":900,"expiresAt":1800000900,"refreshExpiresAt":1802592000,"#
            + #""user":{"id":"u","email":"e@x.io","role":"user","tenantId":null}}"#
        let decoded = try JSONDecoder().decode(TokenResponse.self, from: Data(current.utf8))
        #expect(decoded.expiresAt == 1_800_000_900 && decoded.refreshExpiresAt == 1_802_592_000)

        let older = try JSONDecoder().decode(
            TokenResponse.self,
            from: Data(#"{"expiresIn":900,"user":{"id":"u","email":"e@x.io","role":"user","tenantId":null}}"#.utf8))
        #expect(older.expiresAt == nil && older.refreshExpiresAt == nil)
        #expect(Set(try object(older).keys) == ["expiresIn", "user"])
    }

    @Test("request bodies use the API's keys and omit absent optionals")
    func requestKeys() throws {
        #expect(Set(try object(RegisterRequest(email: "e", password: "p")).keys) == ["email", "password"])
        #expect(
            Set(try object(RegisterRequest(email: "e", password: "p", tenantId: "t")).keys) == [
                "email", "password", "tenantId",
            ])
        #expect(Set(try object(LoginRequest(email: "e", password: "p")).keys) == ["email", "password"])
        #expect(Set(try object(RefreshRequest(refreshToken: "r")).keys) == ["refreshToken"])
        #expect(try object(StreamTokenRequest()).isEmpty)
        #expect(Set(try object(StreamTokenRequest(customerIds: ["registered": "e"])).keys) == ["customerIds"])
        #expect(Set(try object(VendedToken(token: "t", expiresIn: 1)).keys) == ["token", "expiresIn"])
        #expect(
            Set(try object(MeResponse(sub: "s", email: "e", role: "user")).keys) == [
                "sub", "email", "emailVerified", "role", "tenantId",
            ])
    }

    @Test("a vended token carries expiresAt when the server sends it, decodes without it, and never prints the token")
    func vendedTokenExpiresAt() throws {
        let current = try JSONDecoder().decode(
            VendedToken.self, from: Data(#"{"token":"t.k.n","expiresIn":600,"expiresAt":1800000600}"#.utf8))
        #expect(current == VendedToken(token: "t.k.n", expiresIn: 600, expiresAt: 1_800_000_600))
        let older = try JSONDecoder().decode(VendedToken.self, from: Data(#"{"token":"t.k.n","expiresIn":600}"#.utf8))
        #expect(older.expiresAt == nil)
        let json = try object(current)
        #expect(Set(json.keys) == ["token", "expiresIn", "expiresAt"])
        #expect((json["expiresAt"] as? NSNumber)?.int64Value == 1_800_000_600)
        #expect(current.description == "VendedToken(<5 bytes>, expiresIn: 600, expiresAt: 1800000600)")
        #expect(older.description == "VendedToken(<5 bytes>, expiresIn: 600)")
    }

    @Test("session dates are ISO 8601 UTC strings and round-trip")
    func sessionDates() throws {
        let info = SessionInfo(
            id: "s1",
            createdAt: Date(timeIntervalSince1970: 1_800_000_000),
            lastUsedAt: Date(timeIntervalSince1970: 1_800_000_060),
            userAgent: nil,
            current: true
        )
        let json = try object(info)
        #expect(json["createdAt"] as? String == "2027-01-15T08:00:00Z")
        #expect(json["lastUsedAt"] as? String == "2027-01-15T08:01:00Z")
        #expect(json["userAgent"] is NSNull)
        let decoded = try JSONDecoder().decode(SessionInfo.self, from: try JSONEncoder().encode(info))
        #expect(decoded == info)
        let fractional =
            #"{"id":"s","createdAt":"2027-01-15T08:00:00.250Z","lastUsedAt":"2027-01-15T08:00:00Z","current":false}"#
        let parsed = try JSONDecoder().decode(SessionInfo.self, from: Data(fractional.utf8))
        #expect(parsed.createdAt == Date(timeIntervalSince1970: 1_800_000_000.25))
        let bad = #"{"id":"s","createdAt":1800000000,"lastUsedAt":"x","current":false}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SessionInfo.self, from: Data(bad.utf8)) }
    }

    @Test("error bodies decode known and unknown codes")
    func errorCodes() throws {
        let known = try JSONDecoder().decode(
            ErrorBody.self, from: Data(#"{"error":"invalid_grant","message":"m"}"#.utf8))
        #expect(known.error == .invalidGrant)
        let unknown = try JSONDecoder().decode(ErrorBody.self, from: Data(#"{"error":"brand_new","message":"m"}"#.utf8))
        #expect(unknown.error.rawValue == "brand_new")
        #expect(!ErrorCode.allKnown.contains(unknown.error))
        #expect(ErrorCode.allKnown.count == 31)
        #expect(try object(known)["error"] as? String == "invalid_grant")
    }

    @Test("logout scopes, strategies and header names match the API")
    func constants() {
        #expect(LogoutScope.allCases.map(\.rawValue) == ["local", "others", "global"])
        #expect(AuthStrategy.allCases.map(\.rawValue) == ["bearer", "cookie"])
        #expect(HeaderName.authStrategy == "X-Auth-Strategy")
        #expect(HeaderName.csrfToken == "X-CSRF-Token")
        #expect(HeaderName.requestId == "X-Request-Id")
    }
}
