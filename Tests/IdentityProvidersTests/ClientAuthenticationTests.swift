import Foundation
import IdentityProviders
import JWT
import StrictJSON
import Testing

@Suite struct ClientAuthenticationTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let tokenURL = "https://oauth2.example.com/token"

    @Test("secret basic form-encodes id and secret before base64 (RFC 6749 §2.3.1): ':' and non-ASCII")
    func basicHeader() throws {
        let (form, headers) = try ClientAuthentication.secretBasic("s3cr:et é+").credentials(
            clientId: "my:client", tokenURL: Self.tokenURL, now: Self.now)
        #expect(form.isEmpty)
        #expect(headers.count == 1)
        #expect(headers.first?.0 == "Authorization")
        let value = try #require(headers.first?.1)
        #expect(value.hasPrefix("Basic "))
        let decoded = try #require(Data(base64Encoded: String(value.dropFirst("Basic ".count))))
        #expect(String(decoding: decoded, as: UTF8.self) == "my%3Aclient:s3cr%3Aet+%C3%A9%2B")
        #expect(value == "Basic bXklM0FjbGllbnQ6czNjciUzQWV0KyVDMyVBOSUyQg==")
    }

    @Test("secret post puts client_secret in the body and no header")
    func secretPost() throws {
        let (form, headers) = try ClientAuthentication.secretPost("s3cret").credentials(
            clientId: "id", tokenURL: Self.tokenURL, now: Self.now)
        #expect(headers.isEmpty)
        #expect(form.map(\.0) == ["client_secret"])
        #expect(form.map(\.1) == ["s3cret"])
    }

    @Test("private_key_jwt: the assertion verifies with the public key and carries iss, sub, aud, jti, iat, exp, kid")
    func privateKeyJWT() throws {
        let key = try JWTKey.generate(kid: "client-key-1", algorithm: .es256)
        let authentication = ClientAuthentication.privateKeyJWT(key: key)
        let (form, headers) = try authentication.credentials(
            clientId: "my-client", tokenURL: Self.tokenURL, now: Self.now)
        #expect(headers.isEmpty)
        #expect(form.map(\.0) == ["client_assertion_type", "client_assertion"])
        #expect(form.first?.1 == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        let assertion = try #require(form.last?.1)
        let jwk = try #require(key.publicJWK())
        let publicKeys = try JWTKeySet.verifying(JWKSet(keys: [jwk])).keys
        #expect(publicKeys.keys.allSatisfy { !$0.canSign })
        let claims = try publicKeys.verify(
            assertion,
            options: VerificationOptions(now: Self.now, leeway: 0, requireExpiration: true, requireKeyID: true))
        #expect(claims.issuer == "my-client")
        #expect(claims.subject == "my-client")
        #expect(claims.audience == [Self.tokenURL])
        #expect(claims.issuedAt == 1_790_000_000)
        #expect(claims.expiration == 1_790_000_060)
        #expect(claims.id?.utf8.count == 43)
        let header = try JWTKeySet.decode(assertion).header
        #expect(header["kid"] == "client-key-1")
        #expect(header["alg"] == "ES256")
        let second = try ClientAuthentication.assertion(
            clientId: "my-client", tokenURL: Self.tokenURL, key: key, now: Self.now)
        #expect(try publicKeys.verify(second, options: VerificationOptions(now: Self.now)).id != claims.id)
        // Another key does not verify it.
        let other = try #require(try JWTKey.generate(kid: "client-key-1", algorithm: .es256).publicJWK())
        #expect(throws: JWTError.self) {
            try JWTKeySet.verifying(JWKSet(keys: [other])).keys.verify(
                assertion, options: VerificationOptions(now: Self.now))
        }
    }

    @Test("descriptions never show the secret")
    func descriptions() {
        #expect(!String(describing: ClientAuthentication.secretBasic("hunter2-secret")).contains("hunter2"))
        #expect(!String(reflecting: ClientAuthentication.secretPost("hunter2-secret")).contains("hunter2"))
    }
}
