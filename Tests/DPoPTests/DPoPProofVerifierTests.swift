import DPoP
import Foundation
import JWT
import Testing

@Suite struct DPoPProofVerifierTests {
    @Test("the vector file loads and has valid proofs and a refused one for every failure")
    func vectorsCoverEveryFailure() throws {
        let vectors = try DPoPVector.load()
        #expect(vectors.count == DPoPVector.all.count)
        #expect(DPoPVector.valid.count >= 10)
        let failures = Set(DPoPVector.invalid.compactMap(\.failure))
        #expect(failures == Set(DPoPProofFailure.allCases.map(\.rawValue)))
    }

    @Test(
        "accepts a valid proof made by joserfc or PyJWT and returns its key, jti, iat and nonce",
        arguments: DPoPVector.valid)
    func acceptsValid(vector: DPoPVector) throws {
        let expected = try #require(vector.expect)
        let proof = try vector.verify(with: vector.verifier())
        #expect(proof.thumbprint == expected.thumbprint)
        #expect(proof.identifier == expected.jti)
        #expect(proof.issuedAt == expected.iat)
        #expect(proof.nonce == expected.nonce)
        #expect(proof.algorithm.name == expected.alg)
    }

    @Test("refuses an invalid proof with the reason of its first failed check", arguments: DPoPVector.invalid)
    func refusesInvalid(vector: DPoPVector) throws {
        let failure = try #require(vector.failure.flatMap(DPoPProofFailure.init(rawValue:)))
        #expect(throws: failure) { try vector.verify(with: vector.verifier()) }
    }

    @Test(
        "refuses an invalid proof with the same reason when its header's key is already cached",
        arguments: DPoPVector.invalid)
    func refusesInvalidWithWarmCache(vector: DPoPVector) throws {
        let failure = try #require(vector.failure.flatMap(DPoPProofFailure.init(rawValue:)))
        let verifier = vector.verifier()
        // Warm the cache with every valid proof first (same keys, and for ES256 the same header bytes).
        for valid in DPoPVector.valid { _ = try? valid.verify(with: verifier) }
        #expect(throws: failure) { try vector.verify(with: verifier) }
        #expect(throws: failure) { try vector.verify(with: verifier) }
    }

    @Test("a second proof with the same header verifies from the cached key, and a new key is parsed afresh")
    func keyCacheServesRepeatedHeaders() throws {
        let verifier = DPoPProofVerifier(algorithms: [.es256, .edDSA, .rs256], maxAgeSeconds: 60)
        let vectors = DPoPVector.valid
        for _ in 0..<3 {
            for vector in vectors {
                let proof = try vector.verify(with: verifier)
                #expect(proof.thumbprint == vector.expect?.thumbprint)
            }
        }
        // The header of "jwk not the signing key" names another key: cached or not, its signature fails.
        let mismatched = try DPoPVector.named("jwk not the signing key")
        #expect(throws: DPoPProofFailure.signature) { try mismatched.verify(with: verifier) }
        // A header with a third key after many proofs with the first two.
        let rsa = try DPoPVector.named("RS256 with ath (PyJWT)")
        #expect(try rsa.verify(with: verifier).thumbprint == rsa.expect?.thumbprint)
    }

    @Test("the same proof is refused as stale or future when the clock moves, and accepted again at its time")
    func clockBoundaries() throws {
        let vector = try DPoPVector.named("EdDSA")
        let verifier = vector.verifier()
        let at = { (offset: Int64) in Date(timeIntervalSince1970: TimeInterval(vector.now + offset)) }
        func verify(_ offset: Int64) throws(DPoPProofFailure) -> DPoPProof {
            try verifier.verify(
                vector.proof, method: "POST", targetURI: vector.targetURI, accessToken: nil, now: at(offset))
        }
        #expect(throws: Never.self) { try verify(60) }
        #expect(throws: DPoPProofFailure.stale) { try verify(61) }
        #expect(throws: Never.self) { try verify(-5) }
        #expect(throws: DPoPProofFailure.future) { try verify(-6) }
        #expect(throws: Never.self) { try verify(0) }
    }

    @Test("a proof for one URI and method is refused for another")
    func requestBinding() throws {
        let vector = try DPoPVector.named("ES256")
        let verifier = vector.verifier()
        #expect(throws: DPoPProofFailure.method) {
            try verifier.verify(
                vector.proof, method: "GET", targetURI: vector.targetURI, accessToken: nil, now: vector.date)
        }
        #expect(throws: DPoPProofFailure.uri) {
            try verifier.verify(
                vector.proof, method: "POST", targetURI: "https://api.example.com/auth/login", accessToken: nil,
                now: vector.date)
        }
        #expect(throws: DPoPProofFailure.uri) {
            try verifier.verify(
                vector.proof, method: "POST", targetURI: "not a uri", accessToken: nil, now: vector.date)
        }
        // The target URI is normalised too.
        let proof = try verifier.verify(
            vector.proof, method: "POST", targetURI: "HTTPS://API.example.com:443/auth/./refresh", accessToken: nil,
            now: vector.date)
        #expect(proof.identifier == "es-1")
    }

    @Test("refuses a proof one byte over 8 KiB before looking at it, and reads one of exactly 8 KiB")
    func sizeCap() {
        let verifier = DPoPProofVerifier(algorithms: [.es256], maxAgeSeconds: 60)
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let over = String(repeating: "A", count: DPoPProofVerifier.maximumByteCount + 1)
        #expect(throws: DPoPProofFailure.tooLarge) {
            try verifier.verify(over, method: "POST", targetURI: "https://a.example/", accessToken: nil, now: now)
        }
        let exact = String(repeating: "A", count: DPoPProofVerifier.maximumByteCount)
        #expect(throws: DPoPProofFailure.malformed) {
            try verifier.verify(exact, method: "POST", targetURI: "https://a.example/", accessToken: nil, now: now)
        }
    }

    @Test(
        "hostile proofs get an error, never a crash",
        arguments: ["", ".", "..", "a..b", ".a.b", "a.b.", "é.é.é", "\0.\0.\0"])
    func hostile(proof: String) {
        let verifier = DPoPProofVerifier(algorithms: [.es256, .edDSA], maxAgeSeconds: 60)
        #expect(throws: DPoPProofFailure.malformed) {
            try verifier.verify(proof, method: "POST", targetURI: "https://a.example/", accessToken: nil, now: Date())
        }
    }

    @Test("the replay key is the lowercase hex SHA-256 of thumbprint, a dot and the jti")
    func replayKey() {
        let proof = DPoPProof(thumbprint: "abc", identifier: "jti-1", issuedAt: 0, nonce: nil, algorithm: .es256)
        // printf 'abc.jti-1' | sha256sum
        #expect(proof.replayKey == "d79d6f1c8eac3e1ad8f96fcf522c69688521e2947e915cc556090b5f49f8d270")
    }

    @Test("acceptedUntil covers the age, the skew and one second")
    func acceptedUntil() {
        let verifier = DPoPProofVerifier(algorithms: [.es256], maxAgeSeconds: 60)
        #expect(verifier.acceptedUntil(issuedAt: 1000) == Date(timeIntervalSince1970: 1066))
    }
}
