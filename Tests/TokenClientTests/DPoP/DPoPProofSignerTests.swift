import Foundation
import Testing
import TokenClient
import TokenClientTesting

/// `DPoPProofSigner` and the Linux software keys: proofs checked by joserfc, not by TokenClient's own code.
@Suite("DPoP proofs and keys", .timeLimit(.minutes(1)))
struct DPoPProofSignerTests {
    static let url = URL(string: "https://api.example.test/v1/auth/me?page=2#frag") ?? URL(fileURLWithPath: "/")
    static let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_123.9) }

    @Test("ES256 and EdDSA proofs, fresh and from restored material, verify with joserfc and carry the claims")
    func joserfcVerifies() throws {
        let p256 = try SoftwareDPoPKey.generate(.es256)
        let ed25519 = try SoftwareDPoPKey.generate(.edDSA)
        let restoredP256 = try DPoPKeyKind.softwareP256.restore(try p256.material())
        let restoredEd25519 = try DPoPKeyKind.softwareEd25519.restore(try ed25519.material())
        let keys: [any DPoPKey] = [p256, ed25519, restoredP256, restoredEd25519]
        let proofs = try keys.map { key in
            try DPoPProofSigner(key: key, now: Self.clock).proof(
                method: "post", url: Self.url, accessToken: "abc", nonce: "n-1")
        }
        let verified = try JoserfcProofCheck.verify(proofs)
        try #require(verified.count == 4)
        for (key, result) in zip(keys, verified) {
            #expect(result.header["typ"]?.string == "dpop+jwt")
            #expect(result.header["alg"]?.string == key.algorithm.rawValue)
            #expect(result.privateMembers.isEmpty)
            #expect(result.thumbprint == key.thumbprint)
            #expect(result.claims["htm"]?.string == "POST")
            #expect(result.claims["htu"]?.string == "https://api.example.test/v1/auth/me")
            #expect(result.claims["iat"] == .number(1_800_000_123))
            #expect(result.claims["nonce"]?.string == "n-1")
            // base64url(SHA-256("abc")), FIPS 180-2's first example.
            #expect(result.claims["ath"]?.string == "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0")
            #expect((result.claims["jti"]?.string?.count ?? 0) >= 22)
        }
        #expect(restoredP256.thumbprint == p256.thumbprint)
        #expect(restoredEd25519.thumbprint == ed25519.thumbprint)
        #expect(p256.algorithm == .es256 && ed25519.algorithm == .edDSA)
    }

    @Test("a proof without a token or nonce has no ath and no nonce claim; each jti is new")
    func optionalClaims() throws {
        let signer = DPoPProofSigner(key: try SoftwareDPoPKey.generate(.es256), now: Self.clock)
        let first = try #require(FakeAuthServer.decodeProof(try signer.proof(method: "GET", url: Self.url), path: "/"))
        let second = try #require(FakeAuthServer.decodeProof(try signer.proof(method: "GET", url: Self.url), path: "/"))
        #expect(first.ath == nil && first.nonce == nil)
        #expect(first.htm == "GET" && first.iat == 1_800_000_123 && first.jti != nil)
        #expect(first.jti != second.jti)
    }

    @Test("the RFC 7638 thumbprint of RFC 9449's example key is its jkt")
    func thumbprintVector() {
        let jwk = DPoPPublicJWK(
            kty: "EC", crv: "P-256", x: "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
            y: "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA")
        #expect(jwk.thumbprint == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }

    @Test("material that is not a key is refused with .dpop, never a crash", arguments: [0, 31, 96, 97])
    func hostileMaterial(length: Int) {
        let bytes = Data(repeating: 0x04, count: length)
        #expect(throws: TokenClientError.self) {
            try DPoPKeyKind.softwareP256.restore(DPoPKeyMaterial(kind: "p256", data: bytes))
        }
        #expect(throws: TokenClientError.self) {
            try DPoPKeyKind.softwareEd25519.restore(DPoPKeyMaterial(kind: "p256", data: bytes))
        }
    }

    @Test("the material prints redacted")
    func redactedMaterial() throws {
        let material = try SoftwareDPoPKey.generate(.edDSA).material()
        #expect(String(describing: material) == #"DPoPKeyMaterial(kind: "ed25519", data: <redacted>)"#)
    }
}
