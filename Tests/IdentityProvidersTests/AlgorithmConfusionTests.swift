import Cryptography
import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import StrictJSON
import Testing

@Suite struct AlgorithmConfusionTests {
    @Test(
        "alg none is refused before any key lookup, with or without a signature", arguments: ["none", "None", "NONE"])
    func algNone(name: String) async throws {
        let fixture = try Fixture()
        let header: JSONObject = ["alg": .string(name), "kid": .string(Fixture.rsa.kid)]
        let unsigned = TestIDToken.make(header: header, claims: Fixture.claims()) { _ in [] }
        #expect(await fixture.failure(unsigned) == .rejected(.algorithm))
        let signed = try TestIDToken.make(header: header, claims: Fixture.claims()) { try Fixture.rsa.sign($0) }
        #expect(await fixture.failure(signed) == .rejected(.algorithm))
        #expect(fixture.fetcher.callCount == 0)
    }

    @Test("HS256 signed with the RSA public key's bytes as the secret is refused before any key lookup")
    func hs256WithPublicKey() async throws {
        let fixture = try Fixture()
        let pem = try Fixture.rsa.publicKeyPEM()
        let spki = try AsymmetricKey(rsaModulus: Fixture.rsa.modulus, exponent: Fixture.rsa.exponent)
            .subjectPublicKeyInfo()
        for secret in [Array(pem.utf8), spki, Fixture.rsa.modulus] {
            for (name, algorithm) in [("HS256", HMAC.Algorithm.sha256), ("HS512", .sha512)] {
                let header: JSONObject = ["alg": .string(name), "kid": .string(Fixture.rsa.kid)]
                let token = try TestIDToken.make(header: header, claims: Fixture.claims()) { input in
                    try HMAC(algorithm: algorithm, key: secret, allowShortKey: true).authenticationCode(for: input)
                }
                #expect(await fixture.failure(token) == .rejected(.algorithm))
            }
        }
        #expect(fixture.fetcher.callCount == 0)
    }

    @Test("an algorithm the provider does not allow is refused, even one the library verifies")
    func notAllowed() async throws {
        let fixture = try Fixture(algorithms: [.rs256])
        #expect(
            await fixture.failure(try TestIDToken.es256(Fixture.claims(), key: Fixture.ec)) == .rejected(.algorithm))
        let edKey = try JWTKey.generate(kid: "ed-1", algorithm: .edDSA)
        let ed = try JWTSigner(key: edKey, header: .standard(type: nil)).sign(JWTClaims(Fixture.claims()))
        #expect(await fixture.failure(ed) == .rejected(.algorithm))
        #expect(fixture.fetcher.callCount == 0)
    }

    @Test("a header alg that is not the key's algorithm is refused (RS256 header on the EC key's kid)")
    func algorithmOfTheKey() async throws {
        let fixture = try Fixture()
        let token = try TestIDToken.rs256(
            Fixture.claims(), key: Fixture.rsa, header: ["alg": "RS256", "kid": .string(Fixture.ec.kid)])
        #expect(await fixture.failure(token) == .rejected(.algorithm))
    }

    @Test("a token without kid is refused before any key lookup")
    func missingKID() async throws {
        let fixture = try Fixture()
        for header: JSONObject in [["alg": "RS256"], ["alg": "RS256", "kid": ""]] {
            let token = try TestIDToken.rs256(Fixture.claims(), key: Fixture.rsa, header: header)
            #expect(await fixture.failure(token) == .rejected(.missingKID))
        }
        let numeric = try TestIDToken.rs256(Fixture.claims(), key: Fixture.rsa, header: ["alg": "RS256", "kid": 1])
        #expect(await fixture.failure(numeric) == .rejected(.malformed))
        #expect(fixture.fetcher.callCount == 0)
    }
}
