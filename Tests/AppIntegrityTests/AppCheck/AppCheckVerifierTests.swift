import AppIntegrity
import AppIntegrityTesting
import Cryptography
import Foundation
import JWT
import StrictJSON
import Testing

@Suite("Firebase App Check tokens") struct AppCheckVerifierTests {
    static let projectNumber = "123456789012"
    static let appID = "1:123456789012:android:0a1b2c3d4e5f"
    static let verifier = AppCheckVerifier(
        settings: AppCheckSettings(projectNumber: projectNumber, appIDs: [appID, "1:123456789012:ios:ffee"]))

    /// Valid claims, with `changes` applied (`nil` removes a claim).
    static func claims(_ changes: [String: JSONValue?] = [:], now: Date = Date()) -> JSONObject {
        let seconds = Int64(now.timeIntervalSince1970)
        var claims: JSONObject = [
            "sub": .string(appID), "aud": [.string("projects/\(projectNumber)"), "projects/example-project"],
            "provider": "play_integrity", "iss": .string(AppCheckVerifier.issuerPrefix + projectNumber),
            "exp": .integer(seconds + 3600), "iat": .integer(seconds),
            "jti": "d2ZkZndlZmVm",
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    /// The keys of the fake's JWKS.
    static func keys() async throws -> JWTKeySet {
        let jwks = try await PlayIntegrityFixture.fake().appCheckJWKS()
        return try JWTKeySet.verifying(jwks: JSONValue.serialized(jwks)()).keys
    }

    /// The reason the token signed by the fake for `claims` is refused (nil: accepted).
    func reason(_ claims: JSONObject, forged: Bool = false) async throws -> IntegrityFailureReason? {
        let token = try await PlayIntegrityFixture.fake().appCheckToken(claims: claims, forged: forged)
        let keys = try await Self.keys()
        do {
            _ = try Self.verifier.verify(token, keys: keys, now: Date())
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("accepts a valid token, names its key and returns its app id")
    func acceptsValid() async throws {
        let token = try await PlayIntegrityFixture.fake().appCheckToken(claims: Self.claims())
        #expect(try AppCheckVerifier.keyID(of: token) == "fake-app-check-1")
        let keys = try await Self.keys()
        #expect(try Self.verifier.verify(token, keys: keys, now: Date()) == Self.appID)
    }

    @Test("accepts aud as a single string")
    func audienceString() async throws {
        #expect(try await reason(Self.claims(["aud": .string("projects/\(Self.projectNumber)")])) == nil)
    }

    @Test("refuses an expired token, or one without exp")
    func expired() async throws {
        let past = Int64(Date().timeIntervalSince1970) - 600
        #expect(try await reason(Self.claims(["exp": .integer(past)])) == .expired)
        #expect(try await reason(Self.claims(["exp": nil])) == .malformed)
    }

    @Test("refuses another issuer, for issuer")
    func wrongIssuer() async throws {
        #expect(try await reason(Self.claims(["iss": "https://firebaseappcheck.googleapis.com/999"])) == .issuer)
        #expect(try await reason(Self.claims(["iss": nil])) == .issuer)
    }

    @Test("refuses another audience or an app id not listed, for audience")
    func wrongAudience() async throws {
        #expect(try await reason(Self.claims(["aud": ["projects/999"]])) == .audience)
        #expect(try await reason(Self.claims(["sub": "1:123456789012:android:other"])) == .audience)
    }

    @Test("refuses a token signed by another key under the same kid, for signature")
    func forged() async throws {
        #expect(try await reason(Self.claims(), forged: true) == .signature)
    }

    @Test("refuses HS256 and none before any key is used, for token_type")
    func otherAlgorithms() async throws {
        let payload = Base64URL.encode(JSONValue.object(Self.claims()).serialized())
        for alg in ["HS256", "none", "ES256"] {
            let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","kid":"fake-app-check-1","typ":"JWT"}"#.utf8))
            let token = "\(header).\(payload).\(Base64URL.encode(try SecureRandom.bytes(count: 32)))"
            #expect(throws: IntegrityError.failed(.tokenType, detail: "App Check token alg is not RS256")) {
                try AppCheckVerifier.keyID(of: token)
            }
            let error = #expect(throws: IntegrityError.self) {
                try Self.verifier.verify(token, keys: try JWTKeySet(keys: [JWTKey](), signingKID: nil), now: Date())
            }
            #expect(error?.reason == .tokenType)
        }
    }

    @Test("answers malformed for hostile input and a header without kid, never a crash")
    func malformed() throws {
        let noKID = Base64URL.encode(Array(#"{"alg":"RS256","typ":"JWT"}"#.utf8))
        let inputs = [
            "", "..", "a.b", "a.b.c.d", "%%.e30.AA", "\(noKID).e30.AA",
            String(repeating: "A", count: 8 * 1024 + 1),
            "\(Base64URL.encode(Array(#"{"alg":"RS256","kid":7}"#.utf8))).e30.AA",
        ]
        for input in inputs {
            let error = #expect(throws: IntegrityError.self) { try AppCheckVerifier.keyID(of: input) }
            #expect(error?.reason == .malformed, "\(input.prefix(40))")
        }
        let typ = Base64URL.encode(Array(#"{"alg":"RS256","kid":"k","typ":"at+jwt"}"#.utf8))
        for input in ["\(typ).e30.AA", "e30.e30.AA"] {
            let error = #expect(throws: IntegrityError.self) { try AppCheckVerifier.keyID(of: input) }
            #expect(error?.reason == .tokenType, "\(input)")
        }
    }
}
