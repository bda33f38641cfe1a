import Foundation
import JWT
import Testing
import TokenService
import TokenServiceTesting

/// DPoP-bound sessions (issue 35, RFC 9449) on one real server in the default `optional` mode, with proofs made by
/// scripts/dpop_proof.py (joserfc, PyJWT): binding at login and refresh, refresh refusals, every hostile proof,
/// the scheme rules on the resource routes, and `tokenvend_dpop_proofs_total`. The server's clock stands still
/// (``DPoPClock``), so `iat` bounds are exact. It publishes an ES256 key under an https issuer, so it also serves
/// `/.well-known/openid-configuration`.
@Suite(
    .tags(.integration), .timeLimit(.minutes(1)), .serialized,
    .sharedDPoPServer(
        KeyFixtures.single(.es256).merging(["TOKENVEND_ACCESS_TOKEN_ISSUER": "https://auth.example.com/"]) { $1 }))
struct DPoPBindingTests {
    @Test(
        "a login with a proof binds the session: tokenType DPoP, cnf.jkt is the key's thumbprint",
        arguments: [DPoPProofMaker.Algorithm.es256, .edDSA])
    func loginBinds(alg: DPoPProofMaker.Algorithm) async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey(alg: alg)
        let accepted = h.proofCount("accepted", "none")
        let tokens = try await h.boundLogin(key)
        #expect(try DPoPHarness.boundThumbprint(tokens.accessToken) == key.thumbprint)
        #expect(h.proofCount("accepted", "none") == accepted + 1)
        let me = try await h.boundCall("GET", "/auth/me", token: tokens.accessToken, key: key)
        #expect(me.status == 200, "\(me.text)")
    }

    @Test("a login without a proof stays a bearer session: tokenType Bearer, no cnf")
    func loginWithoutProof() async throws {
        let h = try DPoPHarness.shared()
        let tokens = try await h.bearerLogin()
        #expect(tokens.type == "Bearer")
        #expect(try DPoPHarness.claims(tokens.accessToken)["cnf"] == nil)
        let me = try await h.call("GET", "/auth/me", token: tokens.accessToken, scheme: "Bearer")
        #expect(me.status == 200)
    }

    @Test(
        "a refresh with the session's key keeps the new pair bound to it",
        arguments: [DPoPProofMaker.Algorithm.es256, .edDSA])
    func refreshStaysBound(alg: DPoPProofMaker.Algorithm) async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey(alg: alg)
        var tokens = try await h.boundLogin(key)
        for round in 1...2 {
            let answer = try await h.refresh(
                tokens.refreshToken, proof: try await h.proof(key, "POST", "/auth/refresh"))
            #expect(answer.status == 200, "refresh \(round): \(answer.text)")
            tokens = try Tokens(answer)
            #expect(tokens.type == "DPoP")
            #expect(try DPoPHarness.boundThumbprint(tokens.accessToken) == key.thumbprint)
        }
        let me = try await h.boundCall("GET", "/auth/me", token: tokens.accessToken, key: key)
        #expect(me.status == 200)
    }

    @Test("a refresh of a bound session without a proof is 400 invalid_dpop_proof and rotates nothing")
    func refreshWithoutProof() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let tokens = try await h.boundLogin(key)
        let missing = h.proofCount("rejected", "missing")
        DPoPHarness.expectTokenEndpointRefusal(try await h.refresh(tokens.refreshToken), "refresh without a proof")
        #expect(h.proofCount("rejected", "missing") == missing + 1)
        let owner = try await h.refresh(tokens.refreshToken, proof: try await h.proof(key, "POST", "/auth/refresh"))
        #expect(owner.status == 200, "the owner's refresh afterwards: \(owner.text)")
    }

    @Test("a refresh with another key is 401 invalid_grant; the session is not revoked and the owner refreshes")
    func refreshWithAnotherKey() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let thief = try await h.maker.newKey()
        let tokens = try await h.boundLogin(key)
        let mismatches = h.proofCount("rejected", "key_mismatch")
        let stolen = try await h.refresh(
            tokens.refreshToken, proof: try await h.proof(thief, "POST", "/auth/refresh"))
        #expect(stolen.status == 401 && stolen.errorCode == "invalid_grant", "\(stolen.status) \(stolen.text)")
        #expect(h.proofCount("rejected", "key_mismatch") == mismatches + 1)
        // The access token still works, and the owner's refresh token was not spent.
        #expect(try await h.boundCall("GET", "/auth/me", token: tokens.accessToken, key: key).status == 200)
        let owner = try await h.refresh(tokens.refreshToken, proof: try await h.proof(key, "POST", "/auth/refresh"))
        #expect(owner.status == 200, "the owner's refresh afterwards: \(owner.text)")
        #expect(try Tokens(owner).type == "DPoP")
    }

    @Test("a proof is accepted once: the same jti again is refused at refresh (400) and at /auth/me (401)")
    func replayedProof() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let tokens = try await h.boundLogin(key)
        let replayed = h.proofCount("rejected", "replayed")
        let proof = try await h.proof(key, "POST", "/auth/refresh")
        let first = try await h.refresh(tokens.refreshToken, proof: proof)
        #expect(first.status == 200, "\(first.text)")
        let next = try Tokens(first)
        DPoPHarness.expectTokenEndpointRefusal(try await h.refresh(next.refreshToken, proof: proof), "replayed proof")
        // The same jti under a freshly signed proof is a replay too: (key, jti) is what is remembered.
        let jti = "replayed-\(UUID().uuidString)"
        let me = try await h.proof(key, "GET", "/auth/me", accessToken: next.accessToken, jti: jti)
        #expect(try await h.call("GET", "/auth/me", token: next.accessToken, proof: me).status == 200)
        DPoPHarness.expectResourceRefusal(
            try await h.call("GET", "/auth/me", token: next.accessToken, proof: me), "replayed proof at /auth/me",
            code: "invalid_dpop_proof")
        let again = try await h.proof(key, "GET", "/auth/me", accessToken: next.accessToken, jti: jti)
        DPoPHarness.expectResourceRefusal(
            try await h.call("GET", "/auth/me", token: next.accessToken, proof: again), "the same jti re-signed",
            code: "invalid_dpop_proof")
        #expect(h.proofCount("rejected", "replayed") == replayed + 3)
        // The refresh token the replay came with was not spent.
        let owner = try await h.refresh(next.refreshToken, proof: try await h.proof(key, "POST", "/auth/refresh"))
        #expect(owner.status == 200, "\(owner.text)")
    }

    @Test("iat may be 60 s old and 5 s ahead of the server's clock, no more")
    func issuedAtBounds() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        var tokens = try await h.boundLogin(key)
        let now = h.clock.now
        let stale = h.proofCount("rejected", "stale")
        let future = h.proofCount("rejected", "future")
        for (offset, accepted) in [(-61.0, false), (6, false), (-60, true), (5, true)] {
            let proof = try await h.proof(key, "POST", "/auth/refresh", iat: now.addingTimeInterval(offset))
            let answer = try await h.refresh(tokens.refreshToken, proof: proof)
            if accepted {
                #expect(answer.status == 200, "iat \(offset) s: \(answer.text)")
                tokens = try Tokens(answer)
            } else {
                DPoPHarness.expectTokenEndpointRefusal(answer, "iat \(offset) s")
            }
        }
        #expect(h.proofCount("rejected", "stale") == stale + 1)
        #expect(h.proofCount("rejected", "future") == future + 1)
    }

    @Test("hostile proofs at refresh of a bound session are 400 invalid_dpop_proof; the session keeps working")
    func hostileProofsAtRefresh() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let tokens = try await h.boundLogin(key)
        // What each is counted as (nil: more than one check may catch it first).
        var cases: [(what: String, proof: String, reason: String?)] = [
            ("htm GET for a POST", try await h.proof(key, "GET", "/auth/refresh"), "method"),
            ("htu of another path", try await h.proof(key, "POST", "/auth/login"), "uri"),
            (
                "htu of another host",
                try await h.maker.proof(
                    key, method: "POST", url: "http://tokenvend.example/auth/refresh", iat: h.clock.now), "uri"
            ),
        ]
        let reasons: [DPoPProofMaker.Tamper: String?] = [
            .algNone: nil, .hs256: "algorithm", .privateJWK: "private_key", .typ: "type", .noJWK: nil,
            .otherKeyJWK: "signature", .signature: "signature", .noJTI: "claims", .noIAT: "claims",
            .large: "too_large",
        ]
        for tamper in DPoPProofMaker.Tamper.allCases where tamper != .athOther {
            let reason = try #require(reasons[tamper])
            cases.append(
                ("tamper \(tamper.rawValue)", try await h.proof(key, "POST", "/auth/refresh", tamper: tamper), reason))
        }
        for (what, proof, reason) in cases {
            let rejected = h.rejectedProofs
            let counted = reason.map { h.proofCount("rejected", $0) }
            DPoPHarness.expectTokenEndpointRefusal(try await h.refresh(tokens.refreshToken, proof: proof), what)
            #expect(h.rejectedProofs == rejected + 1, "\(what): one refusal counted")
            if let reason, let counted {
                #expect(h.proofCount("rejected", reason) == counted + 1, "\(what): counted as \(reason)")
            }
        }
        let owner = try await h.refresh(tokens.refreshToken, proof: try await h.proof(key, "POST", "/auth/refresh"))
        #expect(owner.status == 200, "the owner's refresh after the hostile ones: \(owner.text)")
    }

    @Test("a bad proof at login is 400 invalid_dpop_proof even in optional mode, and binds nothing")
    func hostileProofsAtLogin() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let email = try await h.register()
        for tamper in [DPoPProofMaker.Tamper.algNone, .hs256, .privateJWK, .noJWK, .signature, .large] {
            let proof = try await h.proof(key, "POST", "/auth/login", tamper: tamper)
            DPoPHarness.expectTokenEndpointRefusal(try await h.login(email, proof: proof), "login, \(tamper.rawValue)")
        }
        let stale = try await h.proof(key, "POST", "/auth/login", iat: h.clock.now.addingTimeInterval(-120))
        DPoPHarness.expectTokenEndpointRefusal(try await h.login(email, proof: stale), "login, stale iat")
    }

    @Test("a bound access token sent as Bearer is 401 with WWW-Authenticate: DPoP error=\"invalid_token\"")
    func bearerDowngrade() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let tokens = try await h.boundLogin(key)
        DPoPHarness.expectResourceRefusal(
            try await h.call("GET", "/auth/me", token: tokens.accessToken, scheme: "Bearer"), "bound token as Bearer",
            code: "invalid_token")
        // A valid proof does not make the Bearer scheme acceptable.
        let proof = try await h.proof(key, "GET", "/auth/me", accessToken: tokens.accessToken)
        DPoPHarness.expectResourceRefusal(
            try await h.call("GET", "/auth/me", token: tokens.accessToken, scheme: "Bearer", proof: proof),
            "bound token as Bearer with a proof", code: "invalid_token")
        for (method, path) in [("POST", "/stream-token"), ("POST", "/vend/chat")] {
            DPoPHarness.expectResourceRefusal(
                try await h.call(method, path, token: tokens.accessToken, scheme: "Bearer"), "Bearer at \(path)",
                code: "invalid_token")
        }
    }

    @Test("an unbound access token sent with the DPoP scheme is 401 invalid_token, even with a valid proof")
    func unboundTokenAsDPoP() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let tokens = try await h.bearerLogin()
        let scheme = h.proofCount("rejected", "scheme")
        let proof = try await h.proof(key, "GET", "/auth/me", accessToken: tokens.accessToken)
        DPoPHarness.expectResourceRefusal(
            try await h.call("GET", "/auth/me", token: tokens.accessToken, proof: proof), "unbound token as DPoP",
            code: "invalid_token")
        #expect(h.proofCount("rejected", "scheme") == scheme + 1)
        #expect(try await h.call("GET", "/auth/me", token: tokens.accessToken, scheme: "Bearer").status == 200)
    }

    @Test("at a resource route a missing proof, another key, the ath of another token or a bad proof are 401")
    func resourceRefusals() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let other = try await h.maker.newKey()
        let tokens = try await h.boundLogin(key)
        let token = tokens.accessToken
        let missing = h.proofCount("rejected", "missing")
        DPoPHarness.expectResourceRefusal(
            try await h.call("GET", "/auth/me", token: token), "no proof", code: "invalid_dpop_proof")
        #expect(h.proofCount("rejected", "missing") == missing + 1)
        let ath = h.proofCount("rejected", "ath")
        let otherToken = try await h.proof(key, "GET", "/auth/me", accessToken: token, tamper: .athOther)
        DPoPHarness.expectResourceRefusal(
            try await h.call("GET", "/auth/me", token: token, proof: otherToken), "ath of another token",
            code: "invalid_dpop_proof")
        #expect(h.proofCount("rejected", "ath") == ath + 1)
        let cases: [(String, String)] = [
            ("another key", try await h.proof(other, "GET", "/auth/me", accessToken: token)),
            ("no ath", try await h.proof(key, "GET", "/auth/me")),
            ("htm POST", try await h.proof(key, "POST", "/auth/me", accessToken: token)),
            ("htu of another path", try await h.proof(key, "GET", "/auth/sessions", accessToken: token)),
            ("alg none", try await h.proof(key, "GET", "/auth/me", accessToken: token, tamper: .algNone)),
            ("HS256", try await h.proof(key, "GET", "/auth/me", accessToken: token, tamper: .hs256)),
            ("private jwk", try await h.proof(key, "GET", "/auth/me", accessToken: token, tamper: .privateJWK)),
        ]
        for (what, proof) in cases {
            DPoPHarness.expectResourceRefusal(
                try await h.call("GET", "/auth/me", token: token, proof: proof), what, code: "invalid_dpop_proof")
        }
        #expect(try await h.boundCall("GET", "/auth/me", token: token, key: key).status == 200)
    }

    @Test("a bound token works with proofs on /auth/me, /stream-token, /vend/chat and after a query string")
    func boundResourceRoutes() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey(alg: .edDSA)
        let tokens = try await h.boundLogin(key)
        let accepted = h.proofCount("accepted", "none")
        for (method, path) in [("GET", "/auth/me"), ("POST", "/stream-token"), ("POST", "/vend/chat")] {
            let answer = try await h.boundCall(method, path, token: tokens.accessToken, key: key)
            #expect(answer.status == 200, "\(method) \(path): \(answer.text)")
        }
        // htu is the URL without its query.
        let proof = try await h.proof(key, "GET", "/auth/me", accessToken: tokens.accessToken)
        let query = try await h.call("GET", "/auth/me?view=full", token: tokens.accessToken, proof: proof)
        #expect(query.status == 200, "\(query.text)")
        #expect(h.proofCount("accepted", "none") == accepted + 4)
        // Logout is a resource route too.
        let logout = try await h.boundCall("POST", "/auth/logout", token: tokens.accessToken, key: key)
        #expect(logout.status == 204, "logout: \(logout.status) \(logout.text)")
    }

    @Test("a proof sent to refresh an unbound session is ignored: the session stays unbound")
    func proofForUnboundRefresh() async throws {
        let h = try DPoPHarness.shared()
        let key = try await h.maker.newKey()
        let tokens = try await h.bearerLogin()
        let answer = try await h.refresh(tokens.refreshToken, proof: try await h.proof(key, "POST", "/auth/refresh"))
        #expect(answer.status == 200, "\(answer.text)")
        let next = try Tokens(answer)
        #expect(next.type == "Bearer")
        #expect(try DPoPHarness.claims(next.accessToken)["cnf"] == nil)
        #expect(try await h.call("GET", "/auth/me", token: next.accessToken, scheme: "Bearer").status == 200)
    }

    @Test("openid-configuration lists the configured proof algorithms as dpop_signing_alg_values_supported")
    func discovery() async throws {
        let h = try DPoPHarness.shared()
        let answer = try await h.server.request("GET", "/.well-known/openid-configuration")
        #expect(answer.status == 200, "\(answer.text)")
        #expect(try answer.object()["dpop_signing_alg_values_supported"] as? [String] == ["ES256", "EdDSA"])
    }
}
