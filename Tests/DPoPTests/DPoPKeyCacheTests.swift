import Foundation
import JWT
import Testing

@testable import DPoP

@Suite struct DPoPKeyCacheTests {
    @Test("one entry per distinct header: many proofs with one header share it, a new key adds one")
    func oneEntryPerHeader() throws {
        let verifier = DPoPProofVerifier(algorithms: [.es256, .edDSA, .rs256], maxAgeSeconds: 60)
        let eddsa = try ["EdDSA", "EdDSA with ath", "EdDSA with nonce", "iat 5 s ahead"].map(DPoPVector.named)
        for _ in 0..<5 {
            for vector in eddsa { _ = try vector.verify(with: verifier) }
        }
        #expect(verifier.keys.count == 1)
        let rsa = try DPoPVector.named("RS256 with ath (PyJWT)")
        #expect(try rsa.verify(with: verifier).thumbprint == rsa.expect?.thumbprint)
        #expect(verifier.keys.count == 2)
        // A refused proof adds nothing.
        let refused = try DPoPVector.named("jwk not the signing key")
        #expect(throws: DPoPProofFailure.signature) { try refused.verify(with: verifier) }
        #expect(verifier.keys.count == 2)
    }

    @Test("a full cache drops an entry for a new header and still verifies the dropped one from scratch")
    func eviction() throws {
        let cache = DPoPKeyCache(capacity: 2)
        let vectors = try ["ES256", "EdDSA", "RS256 with ath (PyJWT)"].map(DPoPVector.named)
        let verifier = DPoPProofVerifier(algorithms: [.es256, .edDSA, .rs256], maxAgeSeconds: 60)
        for (index, vector) in vectors.enumerated() {
            let proof = try vector.verify(with: verifier)
            let entry = DPoPKeyCache.Entry(
                key: try JWTKey(jwk: JWK(kty: "OKP", crv: "Ed25519", x: String(repeating: "A", count: 43)), kid: "k"),
                thumbprint: proof.thumbprint, algorithm: proof.algorithm)
            cache.insert(entry, for: [UInt8(index)])
            #expect(cache.count == min(index + 1, 2))
        }
        #expect(cache.entry(for: [2])?.thumbprint == vectors[2].expect?.thumbprint)
        cache.insert(try #require(cache.entry(for: [2])), for: [2])
        #expect(cache.count == 2)
    }
}
