import Cryptography
import JWT
import StrictJSON
import Testing

@Suite struct JWKTests {
    static func jwk(_ text: String) throws(JWTError) -> JWK { try JWK(json: Array(text.utf8)) }

    static let p256X = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let p256Y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let edX = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"

    @Test(
        "a generated key's public JWK round-trips through JSON with members in the fixed order",
        arguments: [
            JWTAlgorithm.es256, .edDSA,
        ])
    func roundTrip(algorithm: JWTAlgorithm) throws {
        let key = try JWTKey.generate(kid: "k-\(algorithm.name)", algorithm: algorithm)
        let jwk = try #require(key.publicJWK())
        #expect(!jwk.isPrivate)
        let text = String(decoding: jwk.serialized(), as: UTF8.self)
        let prefix =
            algorithm == .es256
            ? #"{"kty":"EC","kid":"k-ES256","use":"sig","alg":"ES256","crv":"P-256","x":""#
            : #"{"kty":"OKP","kid":"k-EdDSA","use":"sig","alg":"EdDSA","crv":"Ed25519","x":""#
        #expect(text.hasPrefix(prefix))
        let parsed = try JWK(json: jwk.serialized())
        #expect(parsed == jwk)
        let verifier = try JWTKey(jwk: parsed)
        #expect(verifier.kid == key.kid)
        #expect(verifier.algorithm == algorithm)
        #expect(verifier.fingerprint == key.fingerprint)
        #expect(!verifier.canSign)
        let signing = try JWTKeySet(keys: [key], signingKID: key.kid)
        let token = try signing.sign(Fixture.claims)
        #expect(
            try JWTKeySet(keys: [verifier], signingKID: nil).verify(token, options: Fixture.options()) == Fixture.claims
        )
        // The PKCS#8 PEM gives the same key back.
        let reloaded = try JWTKey(kid: key.kid, algorithm: algorithm, pem: key.privateKeyPEM())
        #expect(reloaded.canSign)
        #expect(reloaded.publicJWK() == jwk)
    }

    @Test("a JWK Set with private members is written public-only, in order")
    func setIsWrittenPublicOnly() throws {
        let ed = try Self.jwk(RFCVectors.ed25519JWK)
        let ec = try Self.jwk(RFCVectors.a3JWK)
        let rsa = try Self.jwk(RFCVectors.a2JWK)
        let set = JWKSet(keys: [ec, ed, rsa])
        let text = String(decoding: set.serialized(), as: UTF8.self)
        for member in [#""d""#, #""p""#, #""q""#, #""dp""#, #""dq""#, #""qi""#, #""k""#] {
            #expect(!text.contains(member))
        }
        #expect(text.hasPrefix(#"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(Self.p256X)","y":"\#(Self.p256Y)"},"#))
        let parsed = try JWKSet(json: set.serialized())
        #expect(parsed.keys == [ec.publicOnly(), ed.publicOnly(), rsa.publicOnly()])
        #expect(parsed.keys.allSatisfy { !$0.isPrivate })
        // publicJWK() of a private key never carries d either.
        let key = try JWTKey(jwk: ec, kid: "a3")
        let published = try #require(key.publicJWK())
        #expect(published.d == nil)
        #expect(!String(decoding: published.serialized(), as: UTF8.self).contains(#""d""#))
        #expect(try JWTKeySet(keys: [key], signingKID: "a3").publicJWKSet().keys == [published])
    }

    @Test(
        "refuses malformed, mismatched and oversized keys with a clear reason",
        arguments: [
            (#"{"kty":"oct","k":"AAAA"}"#, "unknown kty"),
            (#"{"crv":"P-256"}"#, "JWK has no kty"),
            (#"{"kty":"EC","crv":"Ed25519","x":"\#(edX)"}"#, "crv does not match kty"),
            (#"{"kty":"OKP","crv":"P-256","x":"\#(edX)"}"#, "crv does not match kty"),
            (#"{"kty":"EC","crv":"P-256","x":"\#(p256X)"}"#, "JWK has no y"),
            (
                #"{"kty":"EC","crv":"P-256","x":"\#(p256X.dropLast())*","y":"\#(p256Y)"}"#,
                "x is not canonical base64url"
            ),
            (#"{"kty":"EC","crv":"P-256","x":"\#(p256X)=","y":"\#(p256Y)"}"#, "x is not canonical base64url"),
            (
                #"{"kty":"EC","crv":"P-256","x":"\#(p256X.dropLast())F","y":"\#(p256Y)"}"#,
                "x is not canonical base64url"
            ),
            (#"{"kty":"EC","crv":"P-256","x":"AAAA","y":"\#(p256Y)"}"#, "x has the wrong length"),
            (#"{"kty":"OKP","crv":"Ed25519","x":"\#(p256X)AAAA"}"#, "x has the wrong length"),
            (#"{"kty":"OKP","crv":"Ed25519","x":"\#(edX)","y":"\#(p256Y)"}"#, "member not allowed for kty OKP"),
            (
                #"{"kty":"EC","crv":"P-256","x":"\#(p256X)","y":"\#(p256Y)","alg":"EdDSA"}"#,
                "alg does not match kty or crv"
            ),
            (
                #"{"kty":"EC","crv":"P-256","x":"\#(p256X)","y":"\#(p256Y)","alg":"ES384"}"#,
                "alg does not match kty or crv"
            ),
            (#"{"kty":"EC","crv":"P-256","x":"\#(p256X)","y":"\#(p256Y)","alg":"HS256"}"#, "unknown alg"),
            (
                #"{"kty":"EC","crv":"P-256","x":"\#(p256X)","y":"\#(p256Y)","alg":"ES256","use":"enc"}"#,
                "use does not match alg"
            ),
            (
                #"{"kty":"EC","crv":"P-256","x":"\#(p256X)","y":"\#(p256Y)","use":"other"}"#,
                "use is neither sig nor enc"
            ),
            (
                #"{"kty":"OKP","crv":"Ed25519","x":"\#(edX)","alg":"EdDSA","key_ops":["encrypt"]}"#,
                "key_ops excludes sign and verify"
            ),
            (
                #"{"kty":"OKP","crv":"Ed25519","x":"\#(edX)","key_ops":["verify","verify"]}"#,
                "key_ops has unknown or repeated operations"
            ),
            (#"{"kty":"OKP","crv":"Ed25519","x":"\#(edX)","key_ops":"verify"}"#, "JWK key_ops is not an array"),
            (#"{"kty":"OKP","crv":"Ed25519","x":"\#(edX)","kid":""}"#, "empty kid"),
            (#"{"kty":"OKP","crv":"Ed25519","x":7}"#, "JWK member x is not a string"),
            (#"{"kty":"RSA","n":"AKH4","e":"AQAB"}"#, "n is empty or has a leading zero"),
            (#"{"kty":"RSA","n":"ofgW","e":"AQAB","p":"4Bw"}"#, "RSA private members without d"),
            (
                #"{"kty":"EC","crv":"P-256","x":"\#(p256X)","y":"\#(p256Y)","k":"c2VjcmV0"}"#,
                "member k (a symmetric secret) is not allowed for kty EC"
            ),
            (
                #"{"kty":"OKP","crv":"Ed25519","x":"\#(edX)","k":"c2VjcmV0"}"#,
                "member k (a symmetric secret) is not allowed for kty OKP"
            ),
            (
                #"{"kty":"RSA","n":"ofgW","e":"AQAB","k":"c2VjcmV0"}"#,
                "member k (a symmetric secret) is not allowed for kty RSA"
            ),
        ])
    func refusals(json: String, reason: String) {
        #expect(throws: JWTError.invalidKey(reason)) { try Self.jwk(json) }
    }

    @Test("refuses JSON that is not one object, duplicate members, and oversized keys and sets")
    func structure() {
        #expect(throws: JWTError.self) { try Self.jwk(#"[]"#) }
        #expect(throws: JWTError.self) { try Self.jwk(#"{"kty":"OKP","kty":"OKP"}"#) }
        let padding = String(repeating: " ", count: JWK.maximumByteCount)
        #expect(throws: JWTError.invalidKey("JWK larger than 16 KiB")) { try Self.jwk(#"{"kty":"OKP"}"# + padding) }
        let key = #"{"kty":"OKP","crv":"Ed25519","x":"\#(Self.edX)"}"#
        let many = #"{"keys":["# + Array(repeating: key, count: 101).joined(separator: ",") + "]}"
        #expect(throws: JWTError.invalidKey("JWK Set has more than 100 keys")) { try JWKSet(json: Array(many.utf8)) }
        let big = #"{"keys":[],"x":""# + String(repeating: "a", count: JWKSet.maximumByteCount) + #""}"#
        #expect(throws: JWTError.invalidKey("JWK Set larger than 64 KiB")) { try JWKSet(json: Array(big.utf8)) }
        #expect(throws: JWTError.invalidKey("JWK Set has no keys array")) { try JWKSet(json: Array("{}".utf8)) }
        let bad = #"{"keys":[\#(key),{"kty":"EC"}]}"#
        #expect(throws: JWTError.invalidKey("JWK Set key 1: crv does not match kty")) {
            try JWKSet(json: Array(bad.utf8))
        }
        let hundred = #"{"keys":["# + Array(repeating: key, count: 100).joined(separator: ",") + "]}"
        #expect((try? JWKSet(json: Array(hundred.utf8)))?.keys.count == 100)
    }

    @Test("JWTKey(jwk:) checks kid, alg, use and key_ops against its arguments")
    func keyChecks() throws {
        let ed = #"{"kty":"OKP","crv":"Ed25519","x":"\#(Self.edX)""#
        #expect(throws: JWTError.invalidKeyID) { try JWTKey(jwk: Self.jwk(ed + "}")) }
        #expect(throws: JWTError.invalidKey("kid does not match the JWK's kid")) {
            try JWTKey(jwk: Self.jwk(ed + #","kid":"a"}"#), kid: "b")
        }
        #expect(throws: JWTError.invalidKey("alg does not match kty or crv")) {
            try JWTKey(jwk: Self.jwk(ed + "}"), kid: "a", algorithm: .es256)
        }
        #expect(throws: JWTError.unsupportedAlgorithm) {
            try JWTKey(jwk: Self.jwk(ed + "}"), kid: "a", algorithm: .hs512)
        }
        #expect(throws: JWTError.invalidKey("use is not sig")) {
            try JWTKey(jwk: Self.jwk(ed + #","use":"enc"}"#), kid: "a")
        }
        #expect(throws: JWTError.invalidKey("key_ops excludes sign and verify")) {
            try JWTKey(jwk: Self.jwk(ed + #","key_ops":["deriveKey"]}"#), kid: "a")
        }
        let p384 =
            #"{"kty":"EC","crv":"P-384","x":"\#(String(repeating: "A", count: 64))","y":"\#(String(repeating: "A", count: 64))"}"#
        #expect(throws: JWTError.unsupportedAlgorithm) { try JWTKey(jwk: Self.jwk(p384), kid: "a") }
        // A point that is not on the curve.
        var offCurve = try Self.jwk(RFCVectors.a3JWK).publicOnly()
        offCurve.y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a1"
        #expect(throws: JWTError.self) { try JWTKey(jwk: offCurve, kid: "a") }
        // A private d that belongs to another point.
        var mismatched = try Self.jwk(RFCVectors.a3JWK)
        mismatched.d = try #require(JWTKey.generate(kid: "x", algorithm: .es256).publicJWK()?.x)
        #expect(throws: JWTError.self) { try JWTKey(jwk: mismatched, kid: "a") }
        // RSA under 2048 bits, from components.
        let small =
            #"{"kty":"RSA","n":"\#(Base64URL.encode([0x80] + [UInt8](repeating: 0, count: 126) + [1]))","e":"AQAB"}"#
        #expect(throws: JWTError.invalidKey(CryptographyError.KeyProblem.weakRSAKey.description)) {
            try JWTKey(jwk: Self.jwk(small), kid: "a")
        }
    }
}
