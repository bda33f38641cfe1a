import Cryptography
import JWT
import Testing

@Suite struct JWTHostileTokenTests {
    let keys: JWTKeySet
    let good: String

    init() throws {
        keys = try Fixture.keys()
        good = try keys.sign(Fixture.claims)
    }

    func verify(_ token: String) throws(JWTError) {
        _ = try keys.verify(token, options: Fixture.options())
    }

    @Test("accepts the untouched token")
    func baseline() throws {
        #expect(try keys.verify(good, options: Fixture.options()) == Fixture.claims)
    }

    @Test(
        "rejects alg none in any letter case, with or without a signature", arguments: ["none", "None", "NONE", "nOnE"])
    func algNone(alg: String) throws {
        let input = Fixture.b64(#"{"alg":"\#(alg)","kid":"k1"}"#) + "." + Fixture.b64(#"{"sub":"u1","exp":1763000900}"#)
        #expect(throws: JWTError.malformed(.emptySegment)) { try verify(input + ".") }
        #expect(throws: JWTError.algorithmMismatch) { try verify(input + ".AAAA") }
    }

    @Test(
        "rejects an algorithm other than the key's, even when signed correctly with that algorithm",
        arguments: [("HS256", HMAC.Algorithm.sha256), ("HS384", .sha384), ("hs512", .sha512), ("RS512", .sha512)])
    func algorithmConfusion(alg: String, hash: HMAC.Algorithm) throws {
        let token = try Fixture.token(
            header: #"{"alg":"\#(alg)","kid":"k1"}"#, payload: #"{"exp":1763000900}"#, algorithm: hash)
        #expect(throws: JWTError.algorithmMismatch) { try verify(token) }
    }

    @Test("rejects a missing alg")
    func missingAlg() throws {
        let token = try Fixture.token(header: #"{"kid":"k1"}"#, payload: #"{"exp":1763000900}"#)
        #expect(throws: JWTError.algorithmMismatch) { try verify(token) }
    }

    @Test("rejects a tampered header, payload or signature")
    func tampering() throws {
        let parts = good.split(separator: ".").map(String.init)
        let otherHeader = Fixture.b64(#"{"alg":"HS512","typ":"JWT","kid":"k1","x":1}"#)
        let otherPayload = Fixture.b64(#"{"sub":"admin","iat":1763000000,"exp":1763000900}"#)
        #expect(throws: JWTError.invalidSignature) {
            try verify([otherHeader, parts[1], parts[2]].joined(separator: "."))
        }
        #expect(throws: JWTError.invalidSignature) {
            try verify([parts[0], otherPayload, parts[2]].joined(separator: "."))
        }
        var signature = try #require(Base64URL.decode(parts[2]))
        for index in [0, 31, 63] {
            var flipped = signature
            flipped[index] ^= 0x01
            let token = [parts[0], parts[1], Base64URL.encode(flipped)].joined(separator: ".")
            #expect(throws: JWTError.invalidSignature) { try verify(token) }
        }
        signature.removeLast()
        #expect(throws: JWTError.invalidSignature) {
            try verify([parts[0], parts[1], Base64URL.encode(signature)].joined(separator: "."))
        }
    }

    @Test("rejects wrong shapes, bad base64url and padding")
    func structure() throws {
        let parts = good.split(separator: ".").map(String.init)
        let cases: [(String, JWTError)] = [
            ("", .malformed(.segmentCount)),
            (parts[0] + "." + parts[1], .malformed(.segmentCount)),
            (good + ".x", .malformed(.segmentCount)),
            ("." + parts[1] + "." + parts[2], .malformed(.emptySegment)),
            (parts[0] + ".." + parts[2], .malformed(.emptySegment)),
            (parts[0] + "." + parts[1] + ".", .malformed(.emptySegment)),
            (parts[0] + "=." + parts[1] + "." + parts[2], .malformed(.base64URL)),
            (parts[0] + "." + parts[1] + "." + parts[2] + "==", .malformed(.base64URL)),
            (parts[0] + "." + "+" + parts[1].dropFirst() + "." + parts[2], .malformed(.base64URL)),
            (parts[0] + " ." + parts[1] + "." + parts[2], .malformed(.base64URL)),
            (parts[0] + ".é" + parts[1] + "." + parts[2], .malformed(.base64URL)),
        ]
        for (token, error) in cases {
            #expect(throws: error) { try verify(token) }
        }
    }

    @Test("rejects tokens over 16 KiB before anything else")
    func oversized() throws {
        let big = String(repeating: "a", count: 16 * 1024 + 1)
        #expect(throws: JWTError.tokenTooLarge) { try verify(big) }
        #expect(throws: JWTError.tokenTooLarge) { _ = try JWTKeySet.decode(big) }
        let padding = String(repeating: "x", count: 11_000)
        let token = try Fixture.token(
            header: #"{"alg":"HS512","kid":"k1"}"#, payload: #"{"exp":1763000900,"p":"\#(padding)"}"#)
        #expect(token.utf8.count < 16 * 1024)
        try verify(token)
    }

    @Test("rejects deeply nested header and payload JSON")
    func deepNesting() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let header = try Fixture.token(header: #"{"alg":"HS512","kid":"k1","x":\#(deep)}"#, payload: "{}")
        #expect(throws: JWTError.malformed(.nestingTooDeep)) { try verify(header) }
        let payload = try Fixture.token(header: #"{"alg":"HS512","kid":"k1"}"#, payload: #"{"x":\#(deep)}"#)
        #expect(throws: JWTError.malformed(.nestingTooDeep)) { try verify(payload) }
    }

    @Test("rejects duplicate members in the header and the payload")
    func duplicateMembers() throws {
        let header = try Fixture.token(header: #"{"alg":"HS512","kid":"k1","kid":"k2"}"#, payload: "{}")
        #expect(throws: JWTError.malformed(.duplicateMember)) { try verify(header) }
        let payload = try Fixture.token(
            header: #"{"alg":"HS512","kid":"k1"}"#, payload: #"{"exp":1763000900,"exp":9999999999}"#)
        #expect(throws: JWTError.malformed(.duplicateMember)) { try verify(payload) }
    }

    @Test("rejects non-object header or payload")
    func notObjects() throws {
        let header = try Fixture.token(header: #"["alg","HS512"]"#, payload: "{}")
        #expect(throws: JWTError.malformed(.notAnObject)) { try verify(header) }
        let payload = try Fixture.token(header: #"{"alg":"HS512","kid":"k1"}"#, payload: "1763000900")
        #expect(throws: JWTError.malformed(.notAnObject)) { try verify(payload) }
    }

    @Test("rejects any crit header", arguments: [#"["exp"]"#, #"["b64"]"#, "[]", #""x""#])
    func critical(value: String) throws {
        let token = try Fixture.token(
            header: #"{"alg":"HS512","kid":"k1","crit":\#(value)}"#, payload: #"{"exp":1763000900}"#)
        #expect(throws: JWTError.unsupportedCriticalHeader) { try verify(token) }
    }

    @Test("rejects an unknown, missing or non-string kid")
    func keyIDs() throws {
        let unknown = try Fixture.token(header: #"{"alg":"HS512","kid":"k2"}"#, payload: #"{"exp":1763000900}"#)
        #expect(throws: JWTError.unknownKeyID) { try verify(unknown) }
        let missing = try Fixture.token(header: #"{"alg":"HS512"}"#, payload: #"{"exp":1763000900}"#)
        #expect(throws: JWTError.missingKeyID) { try verify(missing) }
        var lenient = Fixture.options()
        lenient.requireKeyID = false
        _ = try keys.verify(missing, options: lenient)
        #expect(throws: JWTError.unknownKeyID) { _ = try keys.verify(unknown, options: lenient) }
        let two = try JWTKeySet(
            keys: [
                HMACKey(kid: "k1", algorithm: .hs512, secret: Fixture.secret512),
                HMACKey(kid: "k2", algorithm: .hs512, secret: Fixture.secret512),
            ],
            signingKID: "k1")
        #expect(throws: JWTError.missingKeyID) { _ = try two.verify(missing, options: lenient) }
        let numeric = try Fixture.token(header: #"{"alg":"HS512","kid":1}"#, payload: #"{"exp":1763000900}"#)
        #expect(throws: JWTError.invalidClaim("kid")) { try verify(numeric) }
    }

    @Test("never mentions the token in an error description")
    func errorsDoNotEcho() throws {
        let token = try Fixture.token(header: #"{"alg":"SECRETALG","kid":"k1"}"#, payload: "{}")
        do {
            try verify(token)
            Issue.record("expected a failure")
        } catch {
            #expect(!error.description.contains("SECRETALG"))
            #expect(!error.description.contains(String(token.prefix(10))))
        }
    }
}

@Suite struct JWTHeaderCacheTests {
    @Test("a remembered header does not skip the signature, kid or claims checks")
    func cachedHeaderStillChecked() throws {
        let keys = try Fixture.keys()
        let good = try keys.sign(Fixture.claims)
        for _ in 0..<3 { #expect(try keys.verify(good, options: Fixture.options()) == Fixture.claims) }
        let parts = good.split(separator: ".").map(String.init)
        let forged = [parts[0], Fixture.b64(#"{"sub":"admin","exp":1763000900}"#), parts[2]].joined(separator: ".")
        #expect(throws: JWTError.invalidSignature) { _ = try keys.verify(forged, options: Fixture.options()) }
        #expect(throws: JWTError.expired) { _ = try keys.verify(good, options: Fixture.options(at: Fixture.now + 900)) }
        var strict = Fixture.options()
        strict.type = "at+jwt"
        #expect(throws: JWTError.typeMismatch) { _ = try keys.verify(good, options: strict) }
        let other = try JWTKeySet(
            keys: [HMACKey(kid: "k1", algorithm: .hs512, secret: Array(Fixture.secret512.reversed()))],
            signingKID: "k1")
        #expect(throws: JWTError.invalidSignature) { _ = try other.verify(good, options: Fixture.options()) }
    }
}
