import Foundation
import PostgresTesting
import Testing
import TokenService
import TokenServiceTesting

/// Two instances on one PostgreSQL database (`dpop_proofs`): a proof accepted by one is a replay at the other, at
/// a token endpoint and at a resource route. Both share `server.publicURL`, so one proof fits both.
@Suite(.tags(.integration), .timeLimit(.minutes(1)), .serialized)
struct DPoPReplayAcrossInstancesTests {
    @Test(
        "a proof accepted by one instance is refused as replayed by the other",
        .enabled(if: TestPostgres.isConfigured))
    func replayAcrossInstances() async throws {
        let database = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(database) }
        let environment = [
            "TOKENVEND_DATABASE_URL": try TestPostgres.url(database: database),
            "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"pair-1","secret":"\#(String(repeating: "k", count: 64))"}]"#,
            "TOKENVEND_REFRESH_TOKEN_SECRET": String(repeating: "r", count: 64),
            "TOKENVEND_DPOP_NONCE_SECRET": String(repeating: "n", count: 64),
            "TOKENVEND_SERVER_PUBLIC_URL": "https://auth.example.com",
        ]
        let clock = DPoPClock()
        let a = try await DPoPHarness(environment: environment, clock: clock)
        let b: DPoPHarness
        do {
            b = try await DPoPHarness(environment: environment, maker: a.maker, clock: clock)
        } catch {
            await a.stop()
            throw error
        }
        do {
            try await Self.check(a, b)
        } catch {
            await b.stop()
            await a.stop()
            throw error
        }
        await b.stop()
        await a.stop()
    }

    private static func check(_ a: DPoPHarness, _ b: DPoPHarness) async throws {
        let key = try await a.maker.newKey()
        let tokens = try await a.boundLogin(key)
        // At refresh: A accepts the proof, B refuses it with the pair A handed out.
        let proof = try await a.proof(key, "POST", "/auth/refresh")
        let atA = try await a.refresh(tokens.refreshToken, proof: proof)
        #expect(atA.status == 200, "\(atA.text)")
        let next = try Tokens(atA)
        let replayed = b.proofCount("rejected", "replayed")
        DPoPHarness.expectTokenEndpointRefusal(try await b.refresh(next.refreshToken, proof: proof), "replay at B")
        #expect(b.proofCount("rejected", "replayed") == replayed + 1)
        // At a resource route, the other way round.
        let me = try await b.proof(key, "GET", "/auth/me", accessToken: next.accessToken)
        #expect(try await b.call("GET", "/auth/me", token: next.accessToken, proof: me).status == 200)
        DPoPHarness.expectResourceRefusal(
            try await a.call("GET", "/auth/me", token: next.accessToken, proof: me), "replay at A",
            code: "invalid_dpop_proof")
        // Fresh proofs still work on both, and the refresh token B refused was not spent.
        let refreshed = try await b.refresh(next.refreshToken, proof: try await b.proof(key, "POST", "/auth/refresh"))
        #expect(refreshed.status == 200, "\(refreshed.text)")
        let latest = try Tokens(refreshed)
        #expect(latest.type == "DPoP")
        #expect(try await a.boundCall("GET", "/auth/me", token: latest.accessToken, key: key).status == 200)
    }
}
