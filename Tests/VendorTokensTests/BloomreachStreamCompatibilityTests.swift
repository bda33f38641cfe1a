import JWT
import StrictJSON
import Testing
import VendorTokens

/// `bloomreach-stream` must sign exactly what `StreamTokenIssuer` (behind `POST /stream-token`) signs today: the
/// key ring, HS512, `JWTHeader.standard(type: "JWT")`, and `{"exp", "iat", "ids"}` with the ids sorted by key.
@Suite struct BloomreachStreamCompatibilityTests {
    /// What `StreamTokenIssuer.issue(ids:now:)` builds, rebuilt here with the JWT module alone.
    private func streamTokenIssuerToken(
        keys: [(kid: String, secret: String)], activeKid: String, ids: [String: String], now: Int64, lifetime: Int64
    ) throws -> String {
        let keySet = try JWTKeySet(
            keys: keys.map { try HMACKey(kid: $0.kid, algorithm: .hs512, secret: $0.secret) }, signingKID: activeKid)
        let idObject = JSONObject(
            ids.sorted { $0.key < $1.key }.map { JSONObject.Member(name: $0.key, value: .string($0.value)) })
        let claims: JWTClaims = ["exp": .integer(now + lifetime), "iat": .integer(now), "ids": .object(idObject)]
        return try keySet.sign(claims, header: .standard(type: "JWT"))
    }

    @Test(
        "the same bytes as StreamTokenIssuer for the same keys, ids and time",
        arguments: [
            ["registered": "u-alice"],
            ["registered": "alice@example.com", "cookie": "c-42", "Zeta": "z", "_ga": "GA1.2"],
        ])
    func sameBytes(ids: [String: String]) throws {
        let template = try Fixture.template(
            """
            {"preset": "bloomreach-stream", "ttlSeconds": 900, "activeKid": "k2",
             "keys": [{"kid": "k1", "secret": "\(Fixture.secret64)"}, {"kid": "k2", "secret": "\(Fixture.otherSecret64)"}]}
            """)
        let caller = Fixture.caller(customerIDs: ids)
        let vended = try template.issue(body: [:], caller: caller, now: Fixture.now)
        let expected = try streamTokenIssuerToken(
            keys: [("k1", Fixture.secret64), ("k2", Fixture.otherSecret64)], activeKid: "k2", ids: ids,
            now: Fixture.now, lifetime: 900)
        #expect(vended.token == expected)
        #expect(vended.expiresIn == 900)
        #expect(vended.expiresAt == Fixture.now + 900)
    }

    @Test("requested ids (a subset of the caller's) give the same bytes as StreamTokenIssuer for that subset")
    func requestedSubset() throws {
        let template = try Fixture.template(
            #"{"preset": "bloomreach-stream", "keys": [{"kid": "k1", "secret": "\#(Fixture.secret64)"}]}"#)
        let vended = try Fixture.issue(template, body: #"{"customerIds": {"cookie": "c-42"}}"#)
        let expected = try streamTokenIssuerToken(
            keys: [("k1", Fixture.secret64)], activeKid: "k1", ids: ["cookie": "c-42"], now: Fixture.now,
            lifetime: 3600)
        #expect(vended.token == expected)
    }
}
