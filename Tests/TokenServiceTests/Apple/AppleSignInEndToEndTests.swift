import Foundation
import IdentityProvidersTesting
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

/// Sign in with Apple's REST API end to end: the real server on a loopback port, the fake Apple
/// (scripts/fake_apple.py) checking the client secret with PyJWT, on SQLite or PostgreSQL.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct AppleSignInEndToEndTests {
    /// The sealed refresh token stored for the user's Apple identity, opened with the harness's key.
    static func storedToken(_ harness: AppleHarness, userID: String) async throws -> String? {
        let identities = try await harness.server.server.backend.identities.identities(userID: userID)
        guard let sealed = identities.first(where: { $0.provider == "apple" })?.sealedRefreshToken else { return nil }
        return try ProviderTokenSeal(key: TokenEncryptionKey(bytes: harness.encryptionKey)).open(
            sealed, provider: "apple")
    }

    @Test("an authorizationCode is redeemed and Apple's refresh token kept sealed; never in the answer or the logs")
    func redeemed() async throws {
        try await AppleHarness.run { harness in
            let code = "code-\(UUID().uuidString.prefix(8))"
            let response = try await harness.signIn(subject: AppleHarness.subject(), code: code)
            #expect(response.status == 200)
            let user = try #require(try response.object()["user"] as? [String: Any])
            let userID = try #require(user["id"] as? String)
            #expect(try await Self.storedToken(harness, userID: userID) == "rt-\(code)")
            let identities = try await harness.server.server.backend.identities.identities(userID: userID)
            let sealed = try #require(identities.first?.sealedRefreshToken)
            #expect(!String(decoding: sealed, as: UTF8.self).contains("rt-"))
            #expect(!String(decoding: response.body, as: UTF8.self).contains("rt-\(code)"))
            let logs = harness.server.logs()
            #expect(!logs.contains("rt-\(code)"))
            #expect(!logs.contains(code))
            #expect(logs.contains("Apple refresh token stored"))
            #expect(harness.server.server.metrics.apple.tokenRequests(.redeem, .success) == 1)
        }
    }

    @Test("a failed redemption still signs in, stores nothing and is counted")
    func failedRedemption() async throws {
        try await AppleHarness.run { harness in
            let response = try await harness.signIn(subject: AppleHarness.subject(), code: "bad-code")
            #expect(response.status == 200)
            let userID = try #require((try response.object()["user"] as? [String: Any])?["id"] as? String)
            #expect(try await Self.storedToken(harness, userID: userID) == nil)
            #expect(harness.server.server.metrics.apple.tokenRequests(.redeem, .refused) == 1)
            #expect(harness.server.logs().contains("Apple authorization code not redeemed"))
        }
    }

    @Test("deleting the account revokes the refresh token once, with client_id, the hint and a valid secret")
    func deletionRevokes() async throws {
        try await AppleHarness.run { harness in
            let response = try await harness.signIn(subject: AppleHarness.subject(), code: "c1")
            try await Self.deleteAccount(harness, signIn: response)
            let revocation = try await harness.apple.nextRevocation()
            #expect(revocation.token == "rt-c1")
            #expect(revocation.clientId == harness.apple.clientId)
            #expect(revocation.tokenTypeHint == "refresh_token")
            #expect(revocation.secretValid)
            #expect(revocation.status == 200)
            try await Self.waitForEmptyOutbox(harness)
            #expect(try await harness.apple.revocations().count == 1)
            #expect(harness.server.server.metrics.apple.tokenRequests(.revoke, .success) == 1)
            #expect(!harness.server.logs().contains("rt-c1"))
        }
    }

    @Test("with email off the outbox sender still runs, for the revocations")
    func emailOff() async throws {
        try await AppleHarness.run(environment: ["TOKENVEND_EMAIL_TRANSPORT": "off"]) { harness in
            let response = try await harness.signIn(subject: AppleHarness.subject(), code: "c5")
            try await Self.deleteAccount(harness, signIn: response)
            let revocation = try await harness.apple.nextRevocation()
            #expect(revocation.token == "rt-c5")
            #expect(revocation.status == 200)
        }
    }

    @Test("a 503 from the revoke endpoint is retried after the backoff, then the token is revoked once")
    func retried() async throws {
        try await AppleHarness.run { harness in
            let response = try await harness.signIn(subject: AppleHarness.subject(), code: "c2")
            try await harness.apple.failNextRevocations(status: 503, count: 1)
            try await Self.deleteAccount(harness, signIn: response)
            #expect(try await harness.apple.nextRevocation().status == 503)
            // The first backoff is 1 s: the next try comes then (the sender sleeps until the row is due).
            let second = try await harness.apple.nextRevocation()
            #expect(second.status == 200)
            #expect(second.token == "rt-c2")
            try await Self.waitForEmptyOutbox(harness)
            #expect(harness.server.server.metrics.apple.tokenRequests(.revoke, .serverError) == 1)
            #expect(harness.server.server.metrics.apple.tokenRequests(.revoke, .success) == 1)
        }
    }

    @Test("a 400 from the revoke endpoint ends the job: given up, logged and counted")
    func refused() async throws {
        try await AppleHarness.run { harness in
            let response = try await harness.signIn(subject: AppleHarness.subject(), code: "c3")
            try await harness.apple.failNextRevocations(status: 400, count: 1)
            try await Self.deleteAccount(harness, signIn: response)
            #expect(try await harness.apple.nextRevocation().status == 400)
            try await Self.waitForEmptyOutbox(harness)
            let rows = try await harness.server.server.backend.email.listOutbox()
            #expect(rows.count == 1)
            #expect(rows.first?.failedAt != nil)
            #expect(harness.server.server.metrics.apple.tokenRequests(.revoke, .refused) == 1)
            #expect(harness.server.logs().contains("provider token revocation refused; given up"))
        }
    }

    @Test("authorizationCode is ignored on a provider without Apple's REST API; one over 4096 bytes is a 400")
    func ignoredWithoutREST() async throws {
        try await withIdentityProvider { server, _ in
            let nonce = try await server.serverNonce()
            let token = try FakeIdentityProvider.token(subject: AppleHarness.subject(), nonce: nonce)
            let response = try await server.request(
                "POST", "/auth/idtoken",
                json: #"{"provider":"apple","idToken":"\#(token)","nonce":"\#(nonce)","authorizationCode":"c"}"#)
            #expect(response.status == 200)
            #expect(server.server.metrics.apple.tokenRequests(.redeem, .success) == 0)
            let long = String(repeating: "c", count: 4_097)
            let refused = try await server.request(
                "POST", "/auth/idtoken",
                json: #"{"provider":"apple","idToken":"\#(token)","nonce":"\#(nonce)","authorizationCode":"\#(long)"}"#)
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_request")
        }
    }

    /// `DELETE /auth/account` with the fresh sign-in's access token (a passwordless account signed in just now).
    static func deleteAccount(_ harness: AppleHarness, signIn response: TestResponse) async throws {
        let access = try #require(try response.object()["accessToken"] as? String)
        let deleted = try await harness.server.request(
            "DELETE", "/auth/account", headers: ["Authorization": "Bearer \(access)"], json: "{}")
        #expect(deleted.status == 200)
    }

    /// Waits (a deadline as a failure bound only) until no outbox row is pending.
    static func waitForEmptyOutbox(_ harness: AppleHarness) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while try await harness.server.server.backend.email.pendingOutboxCount() > 0 {
            guard ContinuousClock.now < deadline else {
                Issue.record("the outbox did not empty")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
