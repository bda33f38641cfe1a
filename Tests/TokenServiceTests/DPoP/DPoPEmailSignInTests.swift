import Foundation
import Testing
import TokenServiceTesting

/// The email token endpoints bind like login (issue 35): an email sign-in code or a password reset confirmed with a
/// proof starts a session bound to the proof's key, which then refreshes only with that key.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct DPoPEmailSignInTests {
    private static let maker = Task { try await DPoPProofMaker.start() }

    /// A proof by `key` for `POST path` on `mail`'s server (real clock: the email harness's server uses one).
    static func proof(_ mail: EmailHarness, _ key: DPoPProofMaker.Key, _ path: String) async throws -> String {
        try await maker.value.proof(
            key, method: "POST", url: "http://127.0.0.1:\(mail.server.port)" + path, accessToken: nil, nonce: nil,
            iat: Date(), jti: nil, tamper: nil)
    }

    /// `POST path` with `json` and a `DPoP` proof by `key`.
    static func post(
        _ mail: EmailHarness, _ key: DPoPProofMaker.Key, _ path: String, _ json: String
    ) async throws -> TestResponse {
        try await mail.server.request(
            "POST", path, headers: ["DPoP": try await proof(mail, key, path)], json: json)
    }

    @Test("a sign-in code and a password reset confirmed with a proof start sessions bound to its key")
    func emailEndpointsBind() async throws {
        let key = try await Self.maker.value.newKey()
        try await EmailHarness.run(environment: ["TOKENVEND_EMAIL_SIGN_IN_CODES": "true"]) { mail in
            let email = "dpop-code@example.com"
            #expect(try await mail.post("/auth/email/code", #"{"email":"\#(email)"}"#).status == 202)
            let code = try await mail.nextCode(to: email)
            let signedIn = try await Self.post(
                mail, key, "/auth/email/code/confirm", #"{"email":"\#(email)","code":"\#(code)"}"#)
            #expect(signedIn.status == 200, "\(signedIn.text)")
            #expect(try signedIn.object()["tokenType"] as? String == "DPoP")
            let access = try #require(try signedIn.object()["accessToken"] as? String)
            #expect(try DPoPHarness.boundThumbprint(access) == key.thumbprint)

            // Another address: one address gets one message a minute.
            let other = "dpop-reset@example.com"
            let registered = try await mail.post(
                "/auth/register", #"{"email":"\#(other)","password":"\#(TestServer.password)"}"#)
            #expect(registered.status == 201, "\(registered.text)")
            #expect(try await mail.post("/auth/password/reset", #"{"email":"\#(other)"}"#).status == 202)
            let resetCode = try await mail.nextCode(to: other)
            let reset = try await Self.post(
                mail, key, "/auth/password/reset/confirm",
                #"{"email":"\#(other)","code":"\#(resetCode)","newPassword":"fresh new password"}"#)
            #expect(reset.status == 200, "\(reset.text)")
            #expect(try reset.object()["tokenType"] as? String == "DPoP")
            let refreshToken = try #require(try reset.object()["refreshToken"] as? String)
            let withoutProof = try await mail.post("/auth/refresh", #"{"refreshToken":"\#(refreshToken)"}"#)
            DPoPHarness.expectTokenEndpointRefusal(withoutProof, "the reset session's refresh without a proof")
            let refreshed = try await Self.post(
                mail, key, "/auth/refresh", #"{"refreshToken":"\#(refreshToken)"}"#)
            #expect(refreshed.status == 200, "\(refreshed.text)")
            #expect(try refreshed.object()["tokenType"] as? String == "DPoP")
        }
    }
}
