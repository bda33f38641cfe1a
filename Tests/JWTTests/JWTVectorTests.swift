import Cryptography
import FoundationEssentials
import JWT
import StrictJSON
import Testing

@Suite struct JWTVectorTests {
    @Test("verifies the RFC 7515 Appendix A.1 HS256 token")
    func rfc7515A1() throws {
        let secret = try #require(
            Base64URL.decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"))
        let token =
            "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let keys = try JWTKeySet(keys: [HMACKey(kid: "a1", algorithm: .hs256, secret: secret)], signingKID: "a1")
        var options = Fixture.options(at: 1_300_819_000)
        options.requireKeyID = false
        options.type = "JWT"
        let claims = try keys.verify(token, options: options)
        #expect(claims.issuer == "joe")
        #expect(claims.expiration == 1_300_819_380)
        #expect(claims["http://example.com/is_root"] == true)
        // The same token is expired at exp and refused when a kid is required.
        #expect(throws: JWTError.expired) {
            var late = options
            late.now = Date(timeIntervalSince1970: 1_300_819_380)
            _ = try keys.verify(token, options: late)
        }
        #expect(throws: JWTError.missingKeyID) { _ = try keys.verify(token, options: Fixture.options()) }
    }

    @Test("reproduces the RFC 7520 §4.4 HS256 signature byte for byte")
    func rfc7520() throws {
        let secret = try #require(Base64URL.decode("hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg"))
        let kid = "018c0ae5-4d9b-471b-bfd6-eef314bc7037"
        let payload = Array(
            ("It\u{2019}s a dangerous business, Frodo, going out your door. You step onto the road, and if you don't "
                + "keep your feet, there\u{2019}s no knowing where you might be swept off to.").utf8)
        let expected =
            "eyJhbGciOiJIUzI1NiIsImtpZCI6IjAxOGMwYWU1LTRkOWItNDcxYi1iZmQ2LWVlZjMxNGJjNzAzNyJ9"
            + ".SXTigJlzIGEgZGFuZ2Vyb3VzIGJ1c2luZXNzLCBGcm9kbywgZ29pbmcgb3V0IHlvdXIgZG9vci4gWW91IHN0ZXAgb250byB0aGU"
            + "gcm9hZCwgYW5kIGlmIHlvdSBkb24ndCBrZWVwIHlvdXIgZmVldCwgdGhlcmXigJlzIG5vIGtub3dpbmcgd2hlcmUgeW91IG1pZ2h0"
            + "IGJlIHN3ZXB0IG9mZiB0by4.s0h6KThzkfBBBkLspW1h84VsJZFTsPPqMDA7g1Md7p0"
        let keys = try JWTKeySet(keys: [HMACKey(kid: kid, algorithm: .hs256, secret: secret)], signingKID: kid)
        let token = try keys.signer(header: JWTHeader([.algorithm, .keyID])).sign(payload: payload)
        #expect(token == expected)
        // The payload is prose, not a claims object: the signature passes and the payload check then fails.
        #expect(throws: JWTError.malformed(.json)) { _ = try keys.verify(expected, options: Fixture.options()) }
    }

    @Test("writes the Bloomreach stream header exactly")
    func streamHeader() throws {
        let keys = try Fixture.keys(kid: "stream-1")
        let ids: JSONValue = ["registered": "ada@example.com"]
        let token = try keys.sign(["exp": 1_700_000_900, "iat": 1_700_000_000, "ids": ids], header: .standard())
        let parts = token.split(separator: ".").map(String.init)
        #expect(Base64URL.decode(parts[0]) == Array(#"{"alg":"HS512","typ":"JWT","kid":"stream-1"}"#.utf8))
        #expect(
            Base64URL.decode(parts[1])
                == Array(#"{"exp":1700000900,"iat":1700000000,"ids":{"registered":"ada@example.com"}}"#.utf8))
    }

    @Test("writes the access-token header and keeps claim order, including a null tenantId")
    func accessTokenLayout() throws {
        let keys = try Fixture.keys(kid: "at-2026")
        let signer = keys.signer(header: .standard(type: "at+jwt"))
        let claims: JWTClaims = [
            "iss": "tokenvend", "aud": "tokenvend", "sub": "u1", "sid": "s1", "iat": 1_700_000_000,
            "exp": 1_700_000_900, "jti": "j1", "email": "ada@example.com", "role": "user", "tenantId": nil,
        ]
        let token = try signer.sign(claims)
        let parts = token.split(separator: ".").map(String.init)
        #expect(Base64URL.decode(parts[0]) == Array(#"{"alg":"HS512","typ":"at+jwt","kid":"at-2026"}"#.utf8))
        let payload = try #require(Base64URL.decode(parts[1]))
        #expect(
            String(decoding: payload, as: UTF8.self)
                == #"{"iss":"tokenvend","aud":"tokenvend","sub":"u1","sid":"s1","iat":1700000000,"exp":1700000900,"#
                + #""jti":"j1","email":"ada@example.com","role":"user","tenantId":null}"#)
        var options = Fixture.options(at: 1_700_000_100, leeway: 30)
        options.issuer = "tokenvend"
        options.audience = "tokenvend"
        options.type = "at+jwt"
        let verified = try keys.verify(token, options: options)
        #expect(verified == claims && verified.string("sid") == "s1" && verified["tenantId"]?.isNull == true)
    }
}
