import Cryptography
import JWT
import StrictJSON
import Testing

/// `JWTKeySet.verifying(jwks:)` and `verifying(_:)`: a third-party JWK Set is read leniently (RFC 7517 §5), keys
/// that cannot verify here are skipped with a reason, and only a set with no usable key is refused.
@Suite struct JWKSVerificationKeysTests {
    /// RFC 7515 A.2's RSA modulus (public), as printed.
    static func a2Modulus() throws -> String { try #require(try RFCVectors.jwk(RFCVectors.a2JWK).n) }

    static func object(_ members: [String: String]) -> String {
        "{" + members.sorted { $0.key < $1.key }.map { #""\#($0.key)":"\#($0.value)""# }.joined(separator: ",") + "}"
    }

    static func document(_ keys: [String]) -> [UInt8] {
        Array(#"{"keys":[\#(keys.joined(separator: ","))]}"#.utf8)
    }

    @Test("an identity provider's set keeps its usable key and skips enc, ES384, PS256, RSA-OAEP, oct, X25519 keys")
    func skipsUnusableKeys() throws {
        let n = try Self.a2Modulus()
        let bytes48 = Base64URL.encode([UInt8](repeating: 1, count: 48))
        let bytes32 = Base64URL.encode([UInt8](repeating: 9, count: 32))
        let keys = [
            Self.object(["kty": "RSA", "kid": "enc", "use": "enc", "alg": "RSA-OAEP", "n": n, "e": "AQAB"]),
            Self.object(["kty": "EC", "kid": "p384", "crv": "P-384", "alg": "ES384", "x": bytes48, "y": bytes48]),
            Self.object(["kty": "RSA", "kid": "ps", "alg": "PS256", "n": n, "e": "AQAB"]),
            Self.object(["kty": "RSA", "kid": "oaep", "alg": "RSA-OAEP", "n": n, "e": "AQAB"]),
            Self.object(["kty": "oct", "kid": "hs", "k": bytes32]),
            Self.object(["kty": "OKP", "kid": "x", "crv": "X25519", "x": bytes32]),
            #""just a string""#,
            Self.object(["kty": "RSA", "kid": "rs", "alg": "RS256", "use": "sig", "n": n, "e": "AQAB"]),
        ]
        let (set, skipped) = try JWTKeySet.verifying(jwks: Self.document(keys))
        #expect(set.keys.map(\.kid) == ["rs"])
        #expect(set.signingKey == nil)
        #expect(try set.verify(RFCVectors.a2Token, options: RFCVectors.options) == RFCVectors.expectedClaims)
        #expect(
            skipped == [
                SkippedJWK(index: 0, kid: "enc", reason: "use is not sig"),
                SkippedJWK(index: 1, kid: "p384", reason: "alg ES384 is not supported"),
                SkippedJWK(index: 2, kid: "ps", reason: "alg PS256 is not supported"),
                SkippedJWK(index: 3, kid: "oaep", reason: "alg RSA-OAEP is not supported"),
                SkippedJWK(index: 4, kid: "hs", reason: "unknown kty"),
                SkippedJWK(index: 5, kid: "x", reason: "curve X25519 is not supported"),
                SkippedJWK(index: 6, kid: nil, reason: "not a JSON object"),
            ])
        #expect(skipped[0].description == #"key 0 (kid "enc"): use is not sig"#)
        // The strict parser still refuses the whole document.
        #expect(throws: JWTError.self) { try JWKSet(json: Self.document(keys)) }
    }

    @Test("an RSA n with a leading zero octet is accepted, stripped, by the lenient reader only")
    func leadingZeroModulus() throws {
        let modulus = try #require(Base64URL.decode(try Self.a2Modulus()))
        let padded = Base64URL.encode([0] + modulus)
        let key = Self.object(["kty": "RSA", "kid": "rs", "n": padded, "e": "AQAB"])
        let (set, skipped) = try JWTKeySet.verifying(jwks: Self.document([key]))
        #expect(skipped.isEmpty)
        #expect(try set.verify(RFCVectors.a2Token, options: RFCVectors.options) == RFCVectors.expectedClaims)
        #expect(set.key(for: "rs")?.publicJWK()?.n == (try Self.a2Modulus()))
        #expect(throws: JWTError.invalidKey("n is empty or has a leading zero")) {
            try JWK(json: Array(key.utf8))
        }
    }

    @Test("a key without kid is used only when it is the only usable key; a repeated kid keeps the first key")
    func keysWithoutKID() throws {
        let ec = try RFCVectors.jwk(RFCVectors.a3JWK).publicOnly()
        let ecText = String(decoding: ec.serialized(), as: UTF8.self)
        let alone = try JWTKeySet.verifying(jwks: Self.document([ecText]))
        #expect(alone.skipped.isEmpty)
        #expect(alone.keys.keys.map(\.kid) == [try ec.thumbprint()])
        #expect(try alone.keys.verify(RFCVectors.a3Token, options: RFCVectors.options) == RFCVectors.expectedClaims)

        let rsa = Self.object(["kty": "RSA", "kid": "rs", "n": try Self.a2Modulus(), "e": "AQAB"])
        let mixed = try JWTKeySet.verifying(jwks: Self.document([ecText, rsa, rsa]))
        #expect(mixed.keys.keys.map(\.kid) == ["rs"])
        #expect(
            mixed.skipped == [
                SkippedJWK(index: 0, kid: nil, reason: "no kid, and the set has other usable keys"),
                SkippedJWK(index: 2, kid: "rs", reason: "repeated kid"),
            ])
    }

    @Test("a set with no usable key, or a document that is not a set, is refused")
    func nothingUsable() throws {
        let enc = Self.object(["kty": "RSA", "kid": "enc", "use": "enc", "n": try Self.a2Modulus(), "e": "AQAB"])
        #expect(throws: JWTError.invalidKey("JWK Set has no usable verification key")) {
            try JWTKeySet.verifying(jwks: Self.document([enc]))
        }
        #expect(throws: JWTError.invalidKey("JWK Set has no usable verification key")) {
            try JWTKeySet.verifying(jwks: Self.document([]))
        }
        #expect(throws: JWTError.invalidKey("JWK Set has no keys array")) {
            try JWTKeySet.verifying(jwks: Array(#"{"key":[]}"#.utf8))
        }
        #expect(throws: JWTError.self) { try JWTKeySet.verifying(jwks: Array("[]".utf8)) }
    }

    @Test("a strictly parsed JWKSet is filtered the same way")
    func parsedSet() throws {
        let ed = try RFCVectors.jwk(RFCVectors.ed25519JWK).publicOnly()
        var signing = ed
        signing.kid = "ed"
        var encryption = try RFCVectors.jwk(RFCVectors.a3JWK).publicOnly()
        encryption.kid = "ec-enc"
        encryption.use = "enc"
        let (set, skipped) = try JWTKeySet.verifying(JWKSet(keys: [encryption, signing]))
        #expect(set.keys.map(\.kid) == ["ed"])
        #expect(skipped == [SkippedJWK(index: 0, kid: "ec-enc", reason: "use is not sig")])
        // RFC 8037 A.4's payload is not JSON: getting past the signature to the payload shows the key verified.
        #expect(throws: JWTError.malformed(.json)) {
            try set.verify(RFCVectors.ed25519Token, options: RFCVectors.options)
        }
    }
}
