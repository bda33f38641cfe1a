import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// `dpop.mode: required` on one real server with `server.publicURL` (which that mode needs): bearer sessions
/// start only bound, `htu` is the public URL whatever the request's Host, cookie mode keeps working unbound; and
/// startup refuses the mode without a public URL.
@Suite(
    .tags(.integration), .timeLimit(.minutes(1)), .serialized,
    .sharedDPoPServer([
        "TOKENVEND_DPOP_MODE": "required", "TOKENVEND_SERVER_PUBLIC_URL": "https://auth.example.com",
    ]))
struct DPoPRequiredModeTests {
    @Test("a bearer login without a proof is 400 invalid_dpop_proof; with one it is bound")
    func loginNeedsProof() async throws {
        let h = try DPoPHarness.shared()
        let email = try await h.register()
        let missing = h.proofCount("rejected", "missing")
        DPoPHarness.expectTokenEndpointRefusal(try await h.login(email), "login without a proof")
        DPoPHarness.expectTokenEndpointRefusal(
            try await h.login(email, headers: ["X-Auth-Strategy": "bearer"]), "explicit bearer login without a proof")
        #expect(h.proofCount("rejected", "missing") == missing + 2)
        let key = try await h.maker.newKey()
        let answer = try await h.login(email, proof: try await h.proof(key, "POST", "/auth/login"))
        #expect(answer.status == 200, "\(answer.text)")
        let tokens = try Tokens(answer)
        #expect(tokens.type == "DPoP")
        #expect(try DPoPHarness.boundThumbprint(tokens.accessToken) == key.thumbprint)
        DPoPHarness.expectTokenEndpointRefusal(try await h.refresh(tokens.refreshToken), "refresh without a proof")
        let refreshed = try await h.refresh(
            tokens.refreshToken, proof: try await h.proof(key, "POST", "/auth/refresh"))
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(try Tokens(refreshed).type == "DPoP")
    }

    @Test("htu is server.publicURL + path: a proof for the Host the request came to is refused")
    func publicURLIsTheTarget() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let email = try await h.register()
        let local = try await h.maker.proof(
            key, method: "POST", url: "http://127.0.0.1:\(h.server.port)/auth/login", iat: h.clock.now)
        DPoPHarness.expectTokenEndpointRefusal(try await h.login(email, proof: local), "htu of the loopback Host")
        // RFC 3986 normalisation: the scheme and host compare case-insensitively, a default port is dropped.
        let spelled = try await h.maker.proof(
            key, method: "POST", url: "HTTPS://Auth.Example.COM:443/auth/login", iat: h.clock.now)
        let answer = try await h.login(email, proof: spelled)
        #expect(answer.status == 200, "normalised htu: \(answer.text)")
    }

    @Test("cookie mode logs in unbound without a proof, and ignores a proof")
    func cookieModeStaysUnbound() async throws {
        let h = try DPoPHarness.shared()
        let email = try await h.register()
        let key = try await h.maker.newKey()
        for proof in [nil, try await h.proof(key, "POST", "/auth/login")] {
            let answer = try await h.login(email, proof: proof, headers: ["X-Auth-Strategy": "cookie"])
            #expect(answer.status == 200, "cookie login (proof: \(proof != nil)): \(answer.text)")
            let field = answer.headers["set-cookie"] ?? ""
            let range = try #require(field.range(of: "__Host-access_token="), "no access cookie: \(field)")
            let access = String(field[range.upperBound...].prefix { $0 != ";" && $0 != "," })
            #expect(try DPoPHarness.claims(access)["cnf"] == nil)
        }
    }

    @Test("startup refuses dpop.mode required without server.publicURL")
    func requiredNeedsPublicURL() async throws {
        do {
            let server = try await TestServer(environment: ["TOKENVEND_DPOP_MODE": "required"])
            await server.stop()
            Issue.record("a server started in required mode without server.publicURL")
        } catch {
            #expect("\(error)".contains("server.publicURL"), "\(error)")
        }
    }
}
