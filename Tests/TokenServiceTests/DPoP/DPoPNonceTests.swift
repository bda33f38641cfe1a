import Cryptography
import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// The nonce secret of ``DPoPNonceTests``' server.
private let dpopNonceSecret = "dpop-nonce-secret-for-the-end-to-end-tests-0123456789abcdef0123456789"

/// Server nonces (`dpop.requireNonce: true`) on one real server whose clock stands still, and `dpop.algorithms`
/// configured to ES256 and RS256: `use_dpop_nonce` with a `DPoP-Nonce` header at a token endpoint (400) and a
/// resource route (401 + WWW-Authenticate), the nonce's HMAC and its two time steps.
@Suite(
    .tags(.integration), .timeLimit(.minutes(1)), .serialized,
    .sharedDPoPServer([
        "TOKENVEND_DPOP_REQUIRE_NONCE": "true", "TOKENVEND_DPOP_NONCE_SECRET": dpopNonceSecret,
        "TOKENVEND_DPOP_ALGORITHMS": #"["ES256", "RS256"]"#,
    ]))
struct DPoPNonceTests {
    /// base64url(HMAC-SHA256(secret, "tokenvend-dpop-nonce:" + floor(unix / 300))), as COMMON35 defines it.
    static func expectedNonce(at date: Date) throws -> String {
        let step = Int(date.timeIntervalSince1970.rounded(.down)) / 300
        let mac = try HMAC(algorithm: .sha256, key: Array(dpopNonceSecret.utf8))
        return Base64URL.encode(try mac.authenticationCode(for: Array("tokenvend-dpop-nonce:\(step)".utf8)))
    }

    /// A bound login that follows the nonce dance; returns the tokens and the nonce the server handed out.
    static func boundLogin(_ h: DPoPHarness, _ key: DPoPProofMaker.Key) async throws -> (Tokens, String) {
        let email = try await h.register()
        let first = try await h.login(email, proof: try await h.proof(key, "POST", "/auth/login"))
        let nonce = try #require(first.headers["dpop-nonce"], "no DPoP-Nonce: \(first.text)")
        let answer = try await h.login(email, proof: try await h.proof(key, "POST", "/auth/login", nonce: nonce))
        #expect(answer.status == 200, "\(answer.text)")
        return (try Tokens(answer), nonce)
    }

    @Test("a token endpoint answers 400 use_dpop_nonce with DPoP-Nonce, then binds with a proof carrying it")
    func tokenEndpointNonce() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let email = try await h.register()
        let refusedBefore = h.proofCount("rejected", "nonce")
        let first = try await h.login(email, proof: try await h.proof(key, "POST", "/auth/login"))
        DPoPHarness.expectTokenEndpointRefusal(first, "login without a nonce", code: "use_dpop_nonce")
        let nonce = try #require(first.headers["dpop-nonce"])
        let expected = try Self.expectedNonce(at: h.clock.now)
        #expect(nonce == expected)
        #expect(h.proofCount("rejected", "nonce") == refusedBefore + 1)
        let made = try await h.proof(key, "POST", "/auth/login", nonce: "made-up-nonce")
        DPoPHarness.expectTokenEndpointRefusal(
            try await h.login(email, proof: made), "a made-up nonce", code: "use_dpop_nonce")
        let answer = try await h.login(email, proof: try await h.proof(key, "POST", "/auth/login", nonce: nonce))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.headers["dpop-nonce"] == nonce)
        let tokens = try Tokens(answer)
        #expect(tokens.type == "DPoP")
        #expect(try DPoPHarness.boundThumbprint(tokens.accessToken) == key.thumbprint)
        // Refresh is a token endpoint too.
        let bare = try await h.refresh(tokens.refreshToken, proof: try await h.proof(key, "POST", "/auth/refresh"))
        DPoPHarness.expectTokenEndpointRefusal(bare, "refresh without a nonce", code: "use_dpop_nonce")
        #expect(bare.headers["dpop-nonce"] == nonce)
        let refreshed = try await h.refresh(
            tokens.refreshToken, proof: try await h.proof(key, "POST", "/auth/refresh", nonce: nonce))
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(refreshed.headers["dpop-nonce"] == nonce)
    }

    @Test("a resource route answers 401 use_dpop_nonce with WWW-Authenticate and DPoP-Nonce, then accepts the nonce")
    func resourceNonce() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let (tokens, _) = try await Self.boundLogin(h, key)
        let token = tokens.accessToken
        let first = try await h.boundCall("GET", "/auth/me", token: token, key: key)
        DPoPHarness.expectResourceRefusal(first, "/auth/me without a nonce", code: "use_dpop_nonce")
        let nonce = try #require(first.headers["dpop-nonce"])
        let me = try await h.boundCall("GET", "/auth/me", token: token, key: key, nonce: nonce)
        #expect(me.status == 200, "\(me.text)")
        let stream = try await h.boundCall("POST", "/stream-token", token: token, key: key, nonce: nonce)
        #expect(stream.status == 200, "\(stream.text)")
    }

    @Test("a nonce is good for its 5-minute step and the next; then the server hands out the new one")
    func nonceSteps() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let (tokens, nonce) = try await Self.boundLogin(h, key)
        let token = tokens.accessToken
        h.clock.advance(by: 300)
        let next = try await h.boundCall("GET", "/auth/me", token: token, key: key, nonce: nonce)
        #expect(next.status == 200, "the previous step's nonce: \(next.text)")
        h.clock.advance(by: 300)
        let old = try await h.boundCall("GET", "/auth/me", token: token, key: key, nonce: nonce)
        DPoPHarness.expectResourceRefusal(old, "a nonce two steps old", code: "use_dpop_nonce")
        let fresh = try #require(old.headers["dpop-nonce"])
        let expected = try Self.expectedNonce(at: h.clock.now)
        #expect(fresh != nonce && fresh == expected)
        let me = try await h.boundCall("GET", "/auth/me", token: token, key: key, nonce: fresh)
        #expect(me.status == 200, "\(me.text)")
    }

    @Test("dpop.algorithms decides: an RS256 key binds when configured, an EdDSA one is then refused")
    func configuredAlgorithms() async throws {
        let h = try DPoPHarness.shared()
        let rsa = try await h.maker.newKey(alg: .rs256)
        let (tokens, nonce) = try await Self.boundLogin(h, rsa)
        #expect(try DPoPHarness.boundThumbprint(tokens.accessToken) == rsa.thumbprint)
        let ed = try await h.maker.newKey(alg: .edDSA)
        let algorithm = h.proofCount("rejected", "algorithm")
        let refused = try await h.login(
            try await h.register(), proof: try await h.proof(ed, "POST", "/auth/login", nonce: nonce))
        DPoPHarness.expectTokenEndpointRefusal(refused, "an EdDSA proof")
        #expect(h.proofCount("rejected", "algorithm") == algorithm + 1)
    }
}
