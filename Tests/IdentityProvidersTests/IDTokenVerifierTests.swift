import Cryptography
import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import StrictJSON
import Testing

@Suite struct IDTokenVerifierTests {
    @Test("a good RS256 token verifies: subject, verified email, expiry and the hash of the signed part")
    func acceptsRS256() async throws {
        let fixture = try Fixture()
        let token = try Fixture.token()
        let verified = try await fixture.verify(token)
        #expect(verified.provider == "apple")
        #expect(verified.subject == "001234.abcdef")
        #expect(verified.email == "ada@example.com")
        #expect(verified.emailVerified)
        #expect(verified.expiresAt == Fixture.start.addingTimeInterval(590))
        // Remembered for replays until exp plus the 60 s leeway, the last moment the token is still accepted.
        #expect(verified.rememberUntil == Fixture.start.addingTimeInterval(590 + 60))
        let dot = try #require(token.lastIndex(of: "."))
        let signed = String(token[..<dot])
        let digest = try SHA256.hash(Array(signed.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(verified.tokenHash == digest)
        #expect(fixture.fetcher.callCount == 1)
    }

    @Test("a good ES256 token verifies, and a warm cache makes no further request")
    func acceptsES256() async throws {
        let fixture = try Fixture()
        _ = try await fixture.verify(try Fixture.token())
        let verified = try await fixture.verify(try TestIDToken.es256(Fixture.claims(), key: Fixture.ec))
        #expect(verified.subject == "001234.abcdef")
        #expect(fixture.fetcher.callCount == 1)
    }

    @Test("the high-S twin of an ES256 token (s → n − s) verifies too, and has the same tokenHash: one replay key")
    func malleableSignatureSameHash() async throws {
        let fixture = try Fixture()
        let token = try TestIDToken.es256(Fixture.claims(), key: Fixture.ec)
        let twin = try TestIDToken.highSTwin(token)
        #expect(twin != token)
        let original = try await fixture.verify(token)
        // The JWT library accepts high S (RFC 7518 and Wycheproof treat it as valid), so both verify.
        let other = try await fixture.verify(twin)
        #expect(other.tokenHash == original.tokenHash)
    }

    @Test("an audience that is not ours is refused")
    func wrongAudience() async throws {
        let fixture = try Fixture()
        #expect(
            await fixture.failure(try Fixture.token(Fixture.claims(["aud": "com.other.app"]))) == .rejected(.audience))
        let others: JSONValue = .array(["com.other.app", "com.third.app"])
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(["aud": others]))) == .rejected(.audience))
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(["aud": nil]))) == .rejected(.audience))
    }

    @Test("an aud that also lists an audience not configured for the provider is refused, string or array")
    func untrustedAudience() async throws {
        let fixture = try Fixture(audiences: [Fixture.audience, "web-client"])
        let extra: JSONValue = .array([.string(Fixture.audience), "someone-else"])
        let withAZP = Fixture.claims(["aud": extra, "azp": .string(Fixture.audience)])
        #expect(
            await fixture.thrown(try Fixture.token(withAZP))
                == .rejectedSigned(.untrustedAudience, subject: "001234.abcdef"))
        let first: JSONValue = .array(["someone-else", .string(Fixture.audience)])
        #expect(
            await fixture.failure(try Fixture.token(Fixture.claims(["aud": first, "azp": "web-client"])))
                == .rejected(.untrustedAudience))
        // Every listed audience configured: accepted (azp names one of them).
        let both: JSONValue = .array([.string(Fixture.audience), "web-client"])
        let ours = Fixture.claims(["aud": both, "azp": "web-client"])
        #expect(try await fixture.verify(try Fixture.token(ours)).subject == "001234.abcdef")
        // A single string audience of ours is still fine; one that is not ours is the plain audience refusal.
        #expect(try await fixture.verify(try Fixture.token(Fixture.claims(["aud": "web-client"]))).subject != "")
    }

    @Test("a typ header other than absent or JWT (any case) is refused: an access token is no ID token")
    func tokenType() async throws {
        let fixture = try Fixture()
        let kid: JSONValue = .string(Fixture.rsa.kid)
        for type in ["at+jwt", "AT+JWT", "application/at+jwt", "JWS", "", "logout+jwt"] {
            let token = try TestIDToken.rs256(
                Fixture.claims(), key: Fixture.rsa, header: ["alg": "RS256", "kid": kid, "typ": .string(type)])
            #expect(await fixture.thrown(token) == .rejected(.tokenType), "typ \(type)")
        }
        let numeric = try TestIDToken.rs256(
            Fixture.claims(), key: Fixture.rsa, header: ["alg": "RS256", "kid": kid, "typ": 1])
        #expect(await fixture.thrown(numeric) == .rejected(.tokenType))
        for type: JSONValue? in ["JWT", "jwt", "Jwt", nil] {
            var header: JSONObject = ["alg": "RS256", "kid": kid]
            header["typ"] = type
            let token = try TestIDToken.rs256(Fixture.claims(), key: Fixture.rsa, header: header)
            #expect(try await fixture.verify(token).subject == "001234.abcdef")
        }
    }

    @Test("a refusal after the signature carries the subject; one before it, or without sub, does not")
    func refusalStage() async throws {
        let fixture = try Fixture()
        let expired = Fixture.claims(["exp": .integer(Int64(Fixture.start.timeIntervalSince1970) - 3600)])
        #expect(
            await fixture.thrown(try Fixture.token(expired)) == .rejectedSigned(.expired, subject: "001234.abcdef"))
        #expect(
            await fixture.thrown(try Fixture.token(Fixture.claims(["iss": "https://evil.example"])))
                == .rejectedSigned(.issuer, subject: "001234.abcdef"))
        #expect(
            await fixture.thrown(try Fixture.token(Fixture.claims(["aud": "com.other.app", "sub": "other"])))
                == .rejectedSigned(.audience, subject: "other"))
        // Signed by a key the provider does not publish under that kid: the signature fails, no subject.
        let forged = try TestIDToken.rs256(
            Fixture.claims(), key: Fixture.rotated, header: ["alg": "RS256", "kid": .string(Fixture.rsa.kid)])
        #expect(await fixture.thrown(forged) == .rejected(.signature))
        #expect(await fixture.thrown("garbage") == .rejected(.malformed))
        // Signed, but no subject to hold to account: the plain refusal.
        #expect(await fixture.thrown(try Fixture.token(Fixture.claims(["sub": nil]))) == .rejected(.malformed))
        #expect(
            await fixture.thrown(try Fixture.token(Fixture.claims(["sub": nil, "iss": "x"]))) == .rejected(.issuer))
    }

    @Test("with several audiences, azp must be one of ours")
    func azpWithSeveralAudiences() async throws {
        let fixture = try Fixture(audiences: [Fixture.audience, "web-client"])
        let several: JSONValue = .array([.string(Fixture.audience), "web-client"])
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(["aud": several]))) == .rejected(.azp))
        let foreign = Fixture.claims(["aud": several, "azp": "someone-else"])
        #expect(await fixture.failure(try Fixture.token(foreign)) == .rejected(.azp))
        let ours = Fixture.claims(["aud": several, "azp": "web-client"])
        #expect(try await fixture.verify(try Fixture.token(ours)).subject == "001234.abcdef")
        // One audience in an array needs no azp.
        let single = Fixture.claims(["aud": .array([.string(Fixture.audience)])])
        #expect(try await fixture.verify(try Fixture.token(single)).subject == "001234.abcdef")
    }

    @Test("an issuer that is not the provider's is refused (exact match)")
    func wrongIssuer() async throws {
        let fixture = try Fixture()
        for issuer: JSONValue? in ["https://evil.example", "https://appleid.apple.com/", "appleid.apple.com", nil] {
            #expect(await fixture.failure(try Fixture.token(Fixture.claims(["iss": issuer]))) == .rejected(.issuer))
        }
    }

    @Test("Google's two issuer spellings are both accepted")
    func googleIssuers() async throws {
        let fetcher = FakeJWKSFetcher()
        let google = try IdentityProvider.google(audiences: ["client-1"])
        fetcher.serve(google.jwksURL, body: TestIDToken.jwks([Fixture.rsa.publicJWK]))
        let verifier = IDTokenVerifier(provider: google, keys: ProviderKeyCache(fetcher: fetcher))
        for issuer in ["https://accounts.google.com", "accounts.google.com"] {
            let claims = Fixture.claims(["iss": .string(issuer), "aud": "client-1"])
            let verified = try await verifier.verify(try Fixture.token(claims), nonce: nil, now: Fixture.start)
            #expect(verified.provider == "google")
        }
    }

    @Test("an expired token is refused; within the 60 s leeway it is accepted")
    func expired() async throws {
        let fixture = try Fixture()
        let now = Int64(Fixture.start.timeIntervalSince1970)
        let late = Fixture.claims(["exp": .integer(now - 61), "iat": .integer(now - 300)])
        #expect(await fixture.failure(try Fixture.token(late)) == .rejected(.expired))
        let skewed = Fixture.claims(["exp": .integer(now - 30), "iat": .integer(now - 300)])
        #expect(try await fixture.verify(try Fixture.token(skewed)).subject == "001234.abcdef")
    }

    @Test("the checks run in the issue's order: a wrong issuer is reported before expiry")
    func order() async throws {
        let fixture = try Fixture()
        let now = Int64(Fixture.start.timeIntervalSince1970)
        let both = Fixture.claims([
            "iss": "https://evil.example", "exp": .integer(now - 600), "iat": .integer(now - 900),
        ])
        #expect(await fixture.failure(try Fixture.token(both)) == .rejected(.issuer))
        let audienceAndFuture = Fixture.claims(["aud": "other", "iat": .integer(now + 3600)])
        #expect(await fixture.failure(try Fixture.token(audienceAndFuture)) == .rejected(.audience))
    }

    @Test("an iat in the future is refused beyond the leeway")
    func futureIssuedAt() async throws {
        let fixture = try Fixture()
        let now = Int64(Fixture.start.timeIntervalSince1970)
        let future = Fixture.claims(["iat": .integer(now + 61), "exp": .integer(now + 600)])
        #expect(await fixture.failure(try Fixture.token(future)) == .rejected(.issuedInFuture))
        let skewed = Fixture.claims(["iat": .integer(now + 30), "exp": .integer(now + 600)])
        #expect(try await fixture.verify(try Fixture.token(skewed)).subject == "001234.abcdef")
    }

    @Test("a token older than maxTokenAge is refused even before its exp")
    func tooOld() async throws {
        let fixture = try Fixture()
        let now = Int64(Fixture.start.timeIntervalSince1970)
        let old = Fixture.claims(["iat": .integer(now - 601), "exp": .integer(now + 3000)])
        #expect(await fixture.failure(try Fixture.token(old)) == .rejected(.tooOld))
        let young = Fixture.claims(["iat": .integer(now - 599), "exp": .integer(now + 3000)])
        #expect(try await fixture.verify(try Fixture.token(young)).subject == "001234.abcdef")
    }

    @Test("sub, exp and iat are required")
    func requiredClaims() async throws {
        let fixture = try Fixture()
        for name in ["sub", "exp", "iat"] {
            #expect(await fixture.failure(try Fixture.token(Fixture.claims([name: nil]))) == .rejected(.malformed))
        }
        #expect(await fixture.failure(try Fixture.token(Fixture.claims(["sub": ""]))) == .rejected(.malformed))
    }

    @Test("email is used only when email_verified is true or \"true\"")
    func emailVerified() async throws {
        let fixture = try Fixture()
        let cases: [(JSONValue?, Bool)] = [
            ("true", true), (.bool(true), true), ("false", false), (.bool(false), false), (nil, false), ("yes", false),
            (.integer(1), false),
        ]
        for (value, verified) in cases {
            let token = try Fixture.token(Fixture.claims(["email_verified": value]))
            let result = try await fixture.verify(token)
            #expect(result.emailVerified == verified)
            #expect(result.email == (verified ? "ada@example.com" : nil))
        }
    }

    @Test("a signature by another key under a published kid is refused")
    func badSignature() async throws {
        let fixture = try Fixture()
        let forged = try TestIDToken.rs256(
            Fixture.claims(), key: Fixture.rotated, header: ["alg": "RS256", "kid": .string(Fixture.rsa.kid)])
        #expect(await fixture.failure(forged) == .rejected(.signature))
        // A payload changed after signing.
        let token = try Fixture.token()
        let parts = token.split(separator: ".")
        let changed = Base64URL.encode(Fixture.claims(["sub": "someone-else"]).serialized())
        #expect(await fixture.failure("\(parts[0]).\(changed).\(parts[2])") == .rejected(.signature))
    }

    @Test("a token whose size, structure or encoding is wrong is refused before any fetch")
    func malformed() async throws {
        let fixture = try Fixture()
        #expect(await fixture.failure(String(repeating: "a", count: 8 * 1024 + 1)) == .rejected(.tooLarge))
        for token in ["", "abc", "a.b", "a.b.c.d", ".e30.sig", "!!!.e30.sig", "WzFd.e30.sig"] {
            #expect(await fixture.failure(token) == .rejected(.malformed), "\(token)")
        }
        // A well-formed header `{}` has no `alg`: refused as an algorithm that is not allowed.
        #expect(await fixture.failure("e30.e30.sig") == .rejected(.algorithm))
        #expect(await fixture.failure("abc") == .rejected(.malformed))
        #expect(fixture.fetcher.callCount == 0)
        // `crit` is refused by the JWT library (after the key lookup).
        let crit = try TestIDToken.rs256(
            Fixture.claims(), key: Fixture.rsa,
            header: ["alg": "RS256", "kid": .string(Fixture.rsa.kid), "crit": .array(["b64"]), "b64": .bool(false)])
        #expect(await fixture.failure(crit) == .rejected(.malformed))
        #expect(fixture.fetcher.callCount == 1)
    }
}
