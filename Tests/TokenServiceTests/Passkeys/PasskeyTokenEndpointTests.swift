import Foundation
import Testing
import TokenServiceTesting

/// Passkey sign-up and sign-in are token endpoints like `/auth/login`: a DPoP proof binds the new session to its
/// key (`tokenType: DPoP`, `cnf.jkt`), a bad proof is refused before the ceremony, and `X-Auth-Strategy: cookie`
/// answers with the session cookies.
@Suite(.tags(.integration), .timeLimit(.minutes(1)), .serialized, .sharedPasskeyServer())
struct PasskeyTokenEndpointTests {
    private static let maker = Task { try await DPoPProofMaker.start() }

    /// A proof by `key` for `POST path` on the harness's server, `iat` on its clock.
    private static func proof(
        _ harness: PasskeyHarness, _ key: DPoPProofMaker.Key, _ path: String, tamper: DPoPProofMaker.Tamper? = nil
    ) async throws -> String {
        try await maker.value.proof(
            key, method: "POST", url: "http://127.0.0.1:\(harness.server.port)" + path, iat: harness.clock.now,
            tamper: tamper)
    }

    @Test("sign-up and sign-in with a DPoP proof start sessions bound to its key, which refresh only with it")
    func dpopBinding() async throws {
        let harness = try PasskeyHarness.shared()
        let key = try await Self.maker.value.newKey()
        let account = try await harness.signUp(
            headers: ["DPoP": try await Self.proof(harness, key, "/auth/passkeys/signup")])
        #expect(try DPoPHarness.boundThumbprint(account.accessToken) == key.thumbprint)

        let signIn = try await harness.signIn(
            account.credentialID,
            headers: ["DPoP": try await Self.proof(harness, key, "/auth/passkeys/authentication")])
        #expect(signIn.status == 200, "\(signIn.text)")
        #expect(try signIn.object()["tokenType"] as? String == "DPoP")
        let access = try #require(try signIn.object()["accessToken"] as? String)
        #expect(try DPoPHarness.boundThumbprint(access) == key.thumbprint)
        let refreshToken = try #require(try signIn.object()["refreshToken"] as? String)
        let body = #"{"refreshToken":"\#(refreshToken)"}"#
        DPoPHarness.expectTokenEndpointRefusal(
            try await harness.post("/auth/refresh", json: body), "refresh of a bound session without a proof")
        let refreshed = try await harness.post(
            "/auth/refresh", json: body, headers: ["DPoP": try await Self.proof(harness, key, "/auth/refresh")])
        #expect(refreshed.status == 200, "\(refreshed.text)")

        // Without a proof the session is a bearer one.
        let plain = try await harness.signIn(account.credentialID)
        #expect(try plain.object()["tokenType"] as? String == "Bearer")
        #expect(try DPoPHarness.boundThumbprint(try #require(try plain.object()["accessToken"] as? String)) == nil)
    }

    @Test("a bad DPoP proof at passkey sign-in is 400 invalid_dpop_proof and spends nothing")
    func badProof() async throws {
        let harness = try PasskeyHarness.shared()
        let key = try await Self.maker.value.newKey()
        let account = try await harness.signUp()
        let made = try await harness.assertion(account.credentialID)
        let refused = try await harness.post(
            "/auth/passkeys/authentication", json: made.body(),
            headers: ["DPoP": try await Self.proof(harness, key, "/auth/passkeys/authentication", tamper: .signature)])
        DPoPHarness.expectTokenEndpointRefusal(refused, "tampered proof")
        // The challenge was not spent: the same assertion without a proof signs in.
        let answer = try await harness.post("/auth/passkeys/authentication", json: made.body())
        #expect(answer.status == 200, "\(answer.text)")
    }

    @Test("X-Auth-Strategy: cookie at passkey sign-in answers with the session cookies, as at login")
    func cookieMode() async throws {
        let harness = try PasskeyHarness.shared()
        let account = try await harness.signUp()
        let answer = try await harness.signIn(account.credentialID, headers: ["X-Auth-Strategy": "cookie"])
        #expect(answer.status == 200, "\(answer.text)")
        let cookies = answer.headers["set-cookie"] ?? ""
        for name in ["__Host-access_token=", "__Secure-refresh_token=", "__Host-csrf_token="] {
            #expect(cookies.contains(name), "\(name) in \(cookies)")
        }
        #expect(try answer.object()["accessToken"] == nil && answer.object()["refreshToken"] == nil, "\(answer.text)")
    }
}
