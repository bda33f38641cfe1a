import Cryptography
import FoundationEssentials
import JWT
import StrictJSON
import Testing

@Suite struct JWTRoundTripTests {
    static func randomString(_ generator: inout some RandomNumberGenerator) -> String {
        let pool = Array("abcXYZ019 _-\"\\/\n\té€😀")
        return String(
            (0..<Int.random(in: 0...12, using: &generator)).map { _ in pool.randomElement(using: &generator) ?? "a" })
    }

    static func randomValue(_ generator: inout some RandomNumberGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0...(depth > 2 ? 4 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &generator))
        case 3: return .double(Double.random(in: -1e6...1e6, using: &generator))
        case 4: return .string(randomString(&generator))
        case 5: return .array((0..<3).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var object = JSONObject()
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                object["k\(index)" + randomString(&generator)] = randomValue(&generator, depth: depth + 1)
            }
            return .object(object)
        }
    }

    @Test(
        "signs and verifies random claims with random keys",
        arguments: JWTAlgorithm.allCases.filter(\.isSymmetric))
    func randomRoundTrips(algorithm: JWTAlgorithm) throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<100 {
            let length = algorithm.hash.outputByteCount + Int.random(in: 0...100, using: &generator)
            let secret = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let keys = try JWTKeySet(
                keys: [HMACKey(kid: "k\(round)", algorithm: algorithm, secret: secret)], signingKID: "k\(round)")
            var claims = JWTClaims()
            for index in 0..<Int.random(in: 0...8, using: &generator) {
                claims["c\(index)"] = Self.randomValue(&generator)
            }
            claims.expiration = Fixture.now + 60
            let token = try keys.sign(claims, header: .standard(type: "at+jwt"))
            let verified = try keys.verify(token, options: Fixture.options())
            #expect(verified == claims)
            #expect(try JWTKeySet.decode(token).payload == claims.object)
        }
    }

    @Test("verifies with any key of the set and signs with the signing key")
    func rotation() throws {
        let old = try HMACKey(kid: "old", algorithm: .hs512, secret: Fixture.secret512)
        let new = try HMACKey(kid: "new", algorithm: .hs384, secret: Array(Fixture.secret512.reversed()))
        let before = try JWTKeySet(keys: [old], signingKID: "old")
        let after = try JWTKeySet(keys: [old, new], signingKID: "new")
        let oldToken = try before.sign(Fixture.claims)
        let newToken = try after.sign(Fixture.claims)
        #expect(try after.verify(oldToken, options: Fixture.options()) == Fixture.claims)
        #expect(try JWTKeySet.decode(newToken).header["alg"] == "HS384")
        #expect(throws: JWTError.unknownKeyID) { _ = try before.verify(newToken, options: Fixture.options()) }
    }

    @Test("builds the key set strictly")
    func keySetRules() throws {
        let key = try HMACKey(kid: "a", algorithm: .hs512, secret: Fixture.secret512)
        #expect(throws: JWTError.invalidKeyID) { try JWTKeySet(keys: [key, key], signingKID: "a") }
        #expect(throws: JWTError.unknownSigningKeyID) { try JWTKeySet(keys: [key], signingKID: "b") }
        #expect(throws: JWTError.invalidKeyID) { try HMACKey(kid: "", algorithm: .hs256, secret: Fixture.secret512) }
        #expect(throws: JWTError.weakKey) {
            try HMACKey(kid: "s", algorithm: .hs512, secret: String(repeating: "x", count: 63))
        }
        _ = try HMACKey(kid: "s", algorithm: .hs512, secret: String(repeating: "x", count: 64))
        let generated = try HMACKey.generateSecret()
        #expect(generated.utf8.count >= 64)
        #expect(try HMACKey.generateSecret() != generated)
    }

    @Test("converts verified claims into an app type")
    func payloadType() throws {
        struct Access: JWTPayload {
            let subject: String
            init(claims: JWTClaims) throws(JWTError) {
                guard let subject = claims.subject else { throw .missingClaim("sub") }
                self.subject = subject
            }
        }
        let keys = try Fixture.keys()
        let token = try keys.sign(Fixture.claims)
        #expect(try keys.verify(token, as: Access.self, options: Fixture.options()).subject == "u1")
    }
}

@Suite struct SecureRandomTests {
    @Test("random tokens of any length, base64url; HMAC secrets below 64 bytes are refused as weak keys")
    func randomTokens() throws {
        let token = try SecureRandom.base64URL(byteCount: 32)
        #expect(token.count == 43)
        #expect(Base64URL.decode(token)?.count == 32)
        #expect(try SecureRandom.base64URL(byteCount: 32) != token)
        #expect(try SecureRandom.bytes(count: 1).count == 1)
        // Why the CSRF token used to be a UUID: the key generator refuses short keys by design.
        #expect(throws: JWTError.weakKey) { try HMACKey.generateSecret(byteCount: 32) }
    }
}
