import JWT
import StrictJSON
import Testing

@Suite struct JWTClaimsValidationTests {
    let keys: JWTKeySet
    let now = Fixture.now

    init() throws {
        keys = try Fixture.keys()
    }

    func verify(_ claims: JWTClaims, _ options: VerificationOptions) throws(JWTError) -> JWTClaims {
        let token = try keys.sign(claims, header: .standard(type: "at+jwt"))
        return try keys.verify(token, options: options)
    }

    @Test("enforces exp at its boundary, with leeway", arguments: [Int64(0), 30])
    func expiration(leeway: Int64) throws {
        let claims: JWTClaims = ["exp": .integer(now)]
        _ = try verify(claims, Fixture.options(at: now - 1 + leeway, leeway: leeway))
        #expect(throws: JWTError.expired) { try verify(claims, Fixture.options(at: now + leeway, leeway: leeway)) }
    }

    @Test("requires exp unless told otherwise")
    func expirationRequired() throws {
        #expect(throws: JWTError.missingClaim("exp")) { try verify(["sub": "u1"], Fixture.options()) }
        var options = Fixture.options()
        options.requireExpiration = false
        _ = try verify(["sub": "u1"], options)
    }

    @Test("honours nbf and refuses iat in the future, with leeway", arguments: [Int64(0), 30])
    func notBeforeAndIssuedAt(leeway: Int64) throws {
        let exp = JSONValue.integer(now + 900)
        _ = try verify(["nbf": .integer(now + leeway), "exp": exp], Fixture.options(leeway: leeway))
        #expect(throws: JWTError.notYetValid) {
            try verify(["nbf": .integer(now + leeway + 1), "exp": exp], Fixture.options(leeway: leeway))
        }
        _ = try verify(["iat": .integer(now + leeway), "exp": exp], Fixture.options(leeway: leeway))
        #expect(throws: JWTError.issuedInFuture) {
            try verify(["iat": .integer(now + leeway + 1), "exp": exp], Fixture.options(leeway: leeway))
        }
    }

    @Test("accepts fractional NumericDates and rejects non-numeric ones")
    func numericDates() throws {
        _ = try verify(["exp": .double(Double(now) + 0.5)], Fixture.options())
        #expect(throws: JWTError.invalidClaim("exp")) { try verify(["exp": "tomorrow"], Fixture.options()) }
        #expect(throws: JWTError.invalidClaim("nbf")) {
            try verify(["exp": .integer(now + 1), "nbf": true], Fixture.options())
        }
    }

    @Test("checks iss, aud and typ when asked")
    func issuerAudienceType() throws {
        let claims: JWTClaims = ["iss": "tokenvend", "aud": ["a", "tokenvend"], "exp": .integer(now + 60)]
        var options = Fixture.options()
        options.issuer = "tokenvend"
        options.audience = "tokenvend"
        options.type = "application/AT+JWT"
        let verified = try verify(claims, options)
        #expect(verified.audience == ["a", "tokenvend"])
        options.issuer = "other"
        #expect(throws: JWTError.issuerMismatch) { try verify(claims, options) }
        options.issuer = "tokenvend"
        options.audience = "other"
        #expect(throws: JWTError.audienceMismatch) { try verify(claims, options) }
        options.audience = nil
        options.type = "JWT"
        #expect(throws: JWTError.typeMismatch) { try verify(claims, options) }
        options.type = nil
        options.issuer = "tokenvend"
        #expect(throws: JWTError.missingClaim("iss")) { try verify(["exp": .integer(now + 60)], options) }
        #expect(throws: JWTError.invalidClaim("aud")) {
            try verify(["aud": 1, "exp": .integer(now + 60)], Fixture.options())
        }
    }

    @Test("exposes the registered claims through typed accessors")
    func accessors() throws {
        var claims: JWTClaims = ["sub": "u1", "tenantId": nil]
        claims.issuer = "tokenvend"
        claims.audience = ["tokenvend"]
        claims.issuedAt = now
        claims.expiration = now + 900
        claims.id = "j1"
        claims.notBefore = now
        let verified = try verify(claims, Fixture.options())
        #expect(verified.subject == "u1" && verified.issuer == "tokenvend" && verified.id == "j1")
        #expect(verified.audience == ["tokenvend"] && verified["aud"] == "tokenvend")
        #expect(verified.issuedAt == now && verified.expiration == now + 900 && verified.notBefore == now)
        #expect(verified["tenantId"] == .null)
        #expect(verified.object.map(\.name) == ["sub", "tenantId", "iss", "aud", "iat", "exp", "jti", "nbf"])
    }
}
