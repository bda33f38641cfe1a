import AppIntegrityTesting
import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// An integrity token bound to a DPoP key (issue 35 with issue 34): the Play Integrity exchange, sent with a proof,
/// binds the integrity token (`cnf.jkt`); a `require` route then accepts it only beside a valid proof by that key.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct DPoPIntegrityBindingTests {
    private static let fake = Task { try await FakePlayIntegrity.start() }

    /// An integrity token from `/integrity/android`, with `proof` in a `DPoP` header when given.
    static func exchange(_ harness: DPoPHarness, _ fake: FakePlayIntegrity, proof: String?) async throws -> TestResponse
    {
        let challenge = try await harness.server.request("POST", "/integrity/challenge", json: "{}")
        let nonce = try #require(try challenge.object()["challenge"] as? String)
        let token = try await fake.token(nonce: nonce, packageName: AndroidIntegrityEndToEndTests.packageName)
        return try await harness.server.request(
            "POST", "/integrity/android", headers: proof.map { ["DPoP": $0] } ?? [:],
            json: #"{"integrityToken":"\#(token)","challenge":"\#(nonce)"}"#)
    }

    /// Runs `body` with a harness of `environment`, stopped afterwards whatever happens.
    static func withHarness(
        _ environment: [String: String], _ body: (DPoPHarness) async throws -> Void
    ) async throws {
        let harness = try await DPoPHarness(environment: environment)
        do {
            try await body(harness)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    @Test("an exchange with a proof binds the integrity token; a require vend takes it only with a proof by that key")
    func boundIntegrityToken() async throws {
        let fake = try await Self.fake.value
        try await Self.withHarness(AndroidIntegrityEndToEndTests.environment(fake)) { harness in
            let key = try await harness.maker.newKey()
            let other = try await harness.maker.newKey()

            let exchanged = try await Self.exchange(
                harness, fake, proof: try await harness.proof(key, "POST", "/integrity/android"))
            #expect(exchanged.status == 200, "\(exchanged.text)")
            let integrity = try #require(try exchanged.object()["integrityToken"] as? String)
            let confirmation = try DPoPHarness.claims(integrity)["cnf"] as? [String: Any]
            #expect(confirmation?["jkt"] as? String == key.thumbprint)

            // The session of the same key: served.
            let owner = try await harness.boundLogin(key)
            let served = try await harness.server.request(
                "POST", "/vend/chat",
                headers: [
                    "Authorization": "DPoP \(owner.accessToken)", "X-App-Integrity": integrity,
                    "DPoP": try await harness.proof(key, "POST", "/vend/chat", accessToken: owner.accessToken),
                ])
            #expect(served.status == 200, "\(served.text)")

            // A session of another key, or an unbound one: the copied integrity token is refused.
            let thief = try await harness.boundLogin(other)
            let byOtherKey = try await harness.server.request(
                "POST", "/vend/chat",
                headers: [
                    "Authorization": "DPoP \(thief.accessToken)", "X-App-Integrity": integrity,
                    "DPoP": try await harness.proof(other, "POST", "/vend/chat", accessToken: thief.accessToken),
                ])
            #expect(byOtherKey.status == 401 && byOtherKey.errorCode == "integrity_invalid", "\(byOtherKey.text)")
            let bearer = try await harness.bearerLogin()
            let withoutProof = try await harness.server.request(
                "POST", "/vend/chat",
                headers: ["Authorization": "Bearer \(bearer.accessToken)", "X-App-Integrity": integrity])
            #expect(withoutProof.status == 401 && withoutProof.errorCode == "integrity_invalid", "\(withoutProof.text)")
            let exposition = String(decoding: harness.server.server.metrics.exposition(), as: UTF8.self)
            #expect(
                exposition.contains(
                    #"tokenvend_integrity_checks_total{route="vend",result="failed",reason="key_mismatch"} 2"#))
        }
    }

    @Test("an exchange without a proof gives an unbound integrity token; a bad proof is 400 invalid_dpop_proof")
    func unboundAndBadProof() async throws {
        let fake = try await Self.fake.value
        try await Self.withHarness(AndroidIntegrityEndToEndTests.environment(fake)) { harness in
            let plain = try await Self.exchange(harness, fake, proof: nil)
            #expect(plain.status == 200, "\(plain.text)")
            let integrity = try #require(try plain.object()["integrityToken"] as? String)
            #expect(try DPoPHarness.claims(integrity)["cnf"] == nil)

            let key = try await harness.maker.newKey()
            let bad = try await Self.exchange(
                harness, fake, proof: try await harness.proof(key, "POST", "/integrity/android", tamper: .signature))
            DPoPHarness.expectTokenEndpointRefusal(bad, "a tampered proof at the exchange")
        }
    }

    @Test("two DPoP fields are refused: 400 at a token endpoint, 401 with the DPoP challenge elsewhere")
    func twoProofFields() async throws {
        try await Self.withHarness([:]) { harness in
            let key = try await harness.maker.newKey()
            let tokens = try await harness.boundLogin(key)
            let proof = try await harness.proof(key, "POST", "/auth/refresh")
            let refresh = try await FreshConnection.request(
                port: harness.server.port, "POST", "/auth/refresh", headers: [("DPoP", proof), ("DPoP", proof)],
                json: #"{"refreshToken":"\#(tokens.refreshToken)"}"#)
            DPoPHarness.expectTokenEndpointRefusal(refresh, "two DPoP fields at refresh")
            let me = try await FreshConnection.request(
                port: harness.server.port, "GET", "/auth/me",
                headers: [("Authorization", "DPoP \(tokens.accessToken)"), ("DPoP", proof), ("DPoP", proof)])
            DPoPHarness.expectResourceRefusal(me, "two DPoP fields at /auth/me", code: "invalid_dpop_proof")
            #expect(harness.proofCount("rejected", "multiple") == 2)
        }
    }
}
