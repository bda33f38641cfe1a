import DPoP
import Foundation
import JWT
import Testing

/// The proofs of Resources/dpop-vectors.json, made by joserfc and PyJWT (scripts/generate-dpop-vectors.py).
struct DPoPVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Expectation: Decodable, Sendable {
        let thumbprint: String
        let jti: String
        let iat: Int64
        let nonce: String?
        let alg: String
    }

    let name: String
    let proof: String
    let method: String
    let targetURI: String
    let accessToken: String?
    let algorithms: [String]
    let now: Int64
    /// A `DPoPProofFailure` raw value, for a proof that must be refused.
    let failure: String?
    /// What an accepted proof holds.
    let expect: Expectation?

    var testDescription: String { name }

    var date: Date { Date(timeIntervalSince1970: TimeInterval(now)) }

    /// A verifier for this vector's algorithms, 60 s old proofs at most, 5 s ahead.
    func verifier() -> DPoPProofVerifier {
        DPoPProofVerifier(algorithms: algorithms.compactMap(JWTAlgorithm.init(name:)), maxAgeSeconds: 60)
    }

    func verify(with verifier: DPoPProofVerifier) throws(DPoPProofFailure) -> DPoPProof {
        try verifier.verify(proof, method: method, targetURI: targetURI, accessToken: accessToken, now: date)
    }

    private struct File: Decodable {
        let vectors: [DPoPVector]
    }

    /// Every vector; empty when the file cannot be read (a test checks that it can).
    static let all: [DPoPVector] = (try? load()) ?? []
    static var valid: [DPoPVector] { all.filter { $0.failure == nil } }
    static var invalid: [DPoPVector] { all.filter { $0.failure != nil } }

    static func load() throws -> [DPoPVector] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Resources/dpop-vectors.json")
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).vectors
    }

    static func named(_ name: String) throws -> DPoPVector {
        guard let vector = all.first(where: { $0.name == name }) else { throw MissingVector(name: name) }
        return vector
    }

    struct MissingVector: Error {
        let name: String
    }
}
