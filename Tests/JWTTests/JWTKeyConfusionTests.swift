import Cryptography
import JWT
import StrictJSON
import Testing

/// The key fixes the algorithm: no header can make one kind of key verify another kind's token.
@Suite struct JWTKeyConfusionTests {
    static let header = #"{"alg":"HS512","typ":"JWT","kid":"k1"}"#
    static let payload = #"{"sub":"u1","iat":1763000000,"exp":1763000900}"#

    /// An HS512 token whose HMAC secret is `secret`.
    static func hs512(secret: [UInt8], header: String = header) throws -> String {
        let input = Fixture.b64(header) + "." + Fixture.b64(payload)
        let mac = try HMAC(algorithm: .sha512, key: secret, allowShortKey: true).authenticationCode(
            for: Array(input.utf8))
        return input + "." + Base64URL.encode(mac)
    }

    @Test(
        "an HS512 token MACed with the public key's SPKI DER, PEM, JWK x or JWK JSON is refused",
        arguments: [
            JWTAlgorithm.es256, .edDSA,
        ])
    func publicKeyAsHMACSecret(algorithm: JWTAlgorithm) throws {
        let key = try JWTKey.generate(kid: "k1", algorithm: algorithm)
        let jwk = try #require(key.publicJWK())
        let verifier = try JWTKey(jwk: jwk)
        let spki: [UInt8]
        let pem: String
        switch algorithm {
        case .es256:
            let raw = try AsymmetricKey(pem: key.privateKeyPEM(), algorithm: .ecdsaP256SHA256)
            spki = try raw.subjectPublicKeyInfo()
            pem = try raw.publicKeyPEM()
        default:
            let raw = try AsymmetricKey(pem: key.privateKeyPEM(), algorithm: .ed25519)
            spki = try raw.subjectPublicKeyInfo()
            pem = try raw.publicKeyPEM()
        }
        let x = try #require(jwk.x)
        let secrets: [[UInt8]] = [
            spki, Array(pem.utf8), try #require(Base64URL.decode(x)), Array(x.utf8), jwk.serialized(),
        ]
        for keys in [try JWTKeySet(keys: [verifier], signingKID: nil), try JWTKeySet(keys: [key], signingKID: "k1")] {
            for secret in secrets {
                let forged = try Self.hs512(secret: secret)
                #expect(throws: JWTError.algorithmMismatch) { try keys.verify(forged, options: Fixture.options()) }
                // Claiming the key's own alg with a MAC as signature fails on the signature instead.
                let relabelled = try Self.hs512(
                    secret: secret, header: #"{"alg":"\#(algorithm.name)","typ":"JWT","kid":"k1"}"#)
                #expect(throws: JWTError.invalidSignature) { try keys.verify(relabelled, options: Fixture.options()) }
            }
        }
    }

    @Test("an HMAC key never verifies an ES256 or EdDSA token, and an asymmetric key never an HS token")
    func kindsNeverCross() throws {
        let hmac = try HMACKey(kid: "k1", algorithm: .hs512, secret: Fixture.secret512)
        let hmacKeys = try JWTKeySet(keys: [hmac], signingKID: "k1")
        for algorithm in [JWTAlgorithm.es256, .edDSA] {
            let asymmetric = try JWTKeySet(keys: [JWTKey.generate(kid: "k1", algorithm: algorithm)], signingKID: "k1")
            let token = try asymmetric.sign(Fixture.claims)
            #expect(throws: JWTError.algorithmMismatch) { try hmacKeys.verify(token, options: Fixture.options()) }
            let hsToken = try hmacKeys.sign(Fixture.claims)
            #expect(throws: JWTError.algorithmMismatch) { try asymmetric.verify(hsToken, options: Fixture.options()) }
        }
        // ES256 and EdDSA keys do not verify each other's tokens under one kid either.
        let es = try JWTKeySet(keys: [JWTKey.generate(kid: "k1", algorithm: .es256)], signingKID: "k1")
        let ed = try JWTKeySet(keys: [JWTKey.generate(kid: "k1", algorithm: .edDSA)], signingKID: "k1")
        #expect(throws: JWTError.algorithmMismatch) {
            try ed.verify(es.sign(Fixture.claims), options: Fixture.options())
        }
        #expect(throws: JWTError.algorithmMismatch) {
            try es.verify(ed.sign(Fixture.claims), options: Fixture.options())
        }
        #expect(throws: JWTError.unsupportedAlgorithm) {
            try HMACKey(kid: "k", algorithm: .es256, secret: Fixture.secret512)
        }
    }

    @Test("asymmetric tokens are checked in the HS order: size, structure, crit, kid, alg, signature, claims")
    func verificationOrder() throws {
        let key = try JWTKey.generate(kid: "k1", algorithm: .es256)
        let keys = try JWTKeySet(keys: [key], signingKID: "k1")
        let good = try keys.sign(Fixture.claims)
        #expect(try keys.verify(good, options: Fixture.options()) == Fixture.claims)
        #expect(throws: JWTError.tokenTooLarge) { try keys.verify(String(repeating: "a", count: 16 * 1024 + 1)) }
        #expect(throws: JWTError.malformed(.segmentCount)) { try keys.verify("a.b") }
        let parts = good.split(separator: ".").map(String.init)
        let crit = Fixture.b64(#"{"alg":"ES256","kid":"k1","crit":["x"]}"#) + "." + parts[1] + "." + parts[2]
        #expect(throws: JWTError.unsupportedCriticalHeader) { try keys.verify(crit, options: Fixture.options()) }
        let unknown = Fixture.b64(#"{"alg":"ES256","kid":"k2"}"#) + "." + parts[1] + "." + parts[2]
        #expect(throws: JWTError.unknownKeyID) { try keys.verify(unknown, options: Fixture.options()) }
        let none = Fixture.b64(#"{"alg":"none","kid":"k1"}"#) + "." + parts[1] + "." + parts[2]
        #expect(throws: JWTError.algorithmMismatch) { try keys.verify(none, options: Fixture.options()) }
        let der = parts[0] + "." + parts[1] + "." + Base64URL.encode([UInt8](repeating: 1, count: 70))
        #expect(throws: JWTError.invalidSignature) { try keys.verify(der, options: Fixture.options()) }
        #expect(throws: JWTError.expired) { try keys.verify(good, options: Fixture.options(at: Fixture.now + 901)) }
    }

    @Test("verify-only sets and public keys cannot sign")
    func verifyOnly() throws {
        let key = try JWTKey.generate(kid: "k1", algorithm: .edDSA)
        let verifier = try JWTKey(jwk: try #require(key.publicJWK()))
        let set = try JWTKeySet(keys: [verifier], signingKID: nil)
        #expect(set.signingKey == nil)
        #expect(throws: JWTError.unknownSigningKeyID) { try set.sign(Fixture.claims) }
        #expect(throws: JWTError.invalidKey("the signing key has no private part")) {
            try JWTKeySet(keys: [verifier], signingKID: "k1")
        }
        #expect(throws: JWTError.unsupportedAlgorithm) { try verifier.privateKeyPEM() }
        #expect(throws: JWTError.unsupportedAlgorithm) { try JWTKey.generate(kid: "k", algorithm: .rs256) }
        #expect(throws: JWTError.unsupportedAlgorithm) { try JWTKey.generate(kid: "k", algorithm: .hs512) }
    }

    /// The description and debug description of the error `body` throws (recording an issue if it throws none).
    static func errorTexts(_ body: () throws(JWTError) -> Void) -> [String] {
        do {
            try body()
            Issue.record("a bad private key was accepted")
            return []
        } catch {
            return [error.description, String(reflecting: error)]
        }
    }

    @Test("no description or error text contains private key material", arguments: [JWTAlgorithm.es256, .edDSA])
    func noSecretsInText(algorithm: JWTAlgorithm) throws {
        let key = try JWTKey.generate(kid: "k1", algorithm: algorithm)
        let pem = try key.privateKeyPEM()
        let raw = try AsymmetricKey(pem: pem, algorithm: try #require(algorithm.asymmetric))
        let d = Base64URL.encode(try raw.privateScalar())
        var privateJWK = try #require(key.publicJWK())
        privateJWK.d = d
        let body = pem.split(separator: "\n").dropFirst().dropLast().joined()
        var texts = [
            key.description, String(reflecting: key), privateJWK.description, String(reflecting: privateJWK),
            String(describing: try JWTKeySet(keys: [key], signingKID: "k1").signer()),
        ]
        // Errors from refused private keys: a truncated PEM, a d for the wrong point, a broken JWK.
        var wrong = privateJWK
        wrong.x = try #require(JWTKey.generate(kid: "o", algorithm: algorithm).publicJWK()?.x)
        texts += Self.errorTexts { () throws(JWTError) in
            _ = try JWTKey(kid: "k", algorithm: algorithm, pem: String(pem.dropLast(30)))
        }
        texts += Self.errorTexts { () throws(JWTError) in _ = try JWTKey(jwk: wrong, kid: "k") }
        texts += Self.errorTexts { () throws(JWTError) in _ = try JWK(json: Array(#"{"kty":"EC","d":"\#(d)"}"#.utf8)) }
        for text in texts {
            #expect(!text.contains(d))
            #expect(!text.contains(body.prefix(40)))
        }
    }
}
