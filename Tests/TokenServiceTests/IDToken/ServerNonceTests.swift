import Foundation
import IdentityProviders
import IdentityProvidersTesting
import Testing
import TokenService
import TokenServiceTesting

/// `POST /auth/nonce` and the server-issued nonces `POST /auth/idtoken` requires (`identity.requireServerNonce`,
/// on by default): issued once, consumed once, expiring after 10 minutes, capped in all.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct ServerNonceTests {
    typealias Provider = FakeIdentityProvider

    static func subject() -> String { "001234.\(UUID().uuidString.lowercased())" }
    static let base64URL = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test("POST /auth/nonce answers 32 random bytes in base64url, expiresIn 600 and no-store; with no body or {}")
    func issues() async throws {
        try await withIdentityProvider { server, _ in
            let empty = try await server.request("POST", "/auth/nonce")
            let braces = try await server.request("POST", "/auth/nonce", json: "{}")
            var nonces: Set<String> = []
            for response in [empty, braces] {
                #expect(response.status == 200)
                #expect(response.headers["cache-control"] == "no-store")
                let body = try response.object()
                #expect(Set(body.keys) == ["nonce", "expiresIn"])
                #expect(body["expiresIn"] as? Int == 600)
                let nonce = try #require(body["nonce"] as? String)
                #expect(nonce.utf8.count == 43)
                #expect(nonce.allSatisfy(Self.base64URL.contains))
                nonces.insert(nonce)
            }
            #expect(nonces.count == 2)
            let extra = try await server.request("POST", "/auth/nonce", json: #"{"provider":"apple"}"#)
            #expect(extra.status == 400)
            #expect(extra.errorCode == "invalid_request")
            // Only the hash is stored: the nonce itself never reaches the log.
            for nonce in nonces { #expect(!server.logs().contains(nonce)) }
        }
    }

    @Test("a valid token without a nonce is 401 invalid_grant, reason nonce_required")
    func missingNonce() async throws {
        try await withIdentityProvider { server, _ in
            let token = try Provider.token(subject: Self.subject(), nonce: nil)
            let response = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: nil))
            #expect(response.status == 401)
            #expect(response.errorCode == "invalid_grant")
            #expect(server.server.metrics.idTokenRejections.value(.nonceRequired) == 1)
            #expect(server.logs().contains(#""reason":"nonce_required""#))
        }
    }

    @Test("an app-chosen nonce that the server never issued is 401 invalid_grant, reason nonce_not_issued")
    func appChosenNonce() async throws {
        try await withIdentityProvider { server, _ in
            let token = try Provider.token(subject: Self.subject(), nonce: "raw-nonce")
            let response = try await server.request("POST", "/auth/idtoken", json: Provider.body(token))
            #expect(response.status == 401)
            #expect(response.errorCode == "invalid_grant")
            #expect(server.server.metrics.idTokenRejections.value(.nonceNotIssued) == 1)
            #expect(server.server.metrics.idTokenSignIns.value(.created) == 0)
        }
    }

    @Test("a nonce is single use: a second token carrying a consumed nonce is refused")
    func singleUse() async throws {
        try await withIdentityProvider { server, _ in
            let nonce = try await server.serverNonce()
            let subject = Self.subject()
            let first = try Provider.token(subject: subject, nonce: nonce)
            let second = try Provider.token(subject: subject, nonce: nonce, es256: true)
            let accepted = try await server.request("POST", "/auth/idtoken", json: Provider.body(first, nonce: nonce))
            #expect(accepted.status == 200)
            let refused = try await server.request("POST", "/auth/idtoken", json: Provider.body(second, nonce: nonce))
            #expect(refused.status == 401)
            #expect(server.server.metrics.idTokenRejections.value(.nonceNotIssued) == 1)
        }
    }

    @Test("a captured token with the hashed claim sent back as the nonce is refused (the claim is public)")
    func echoedClaim() async throws {
        try await withIdentityProvider { server, _ in
            let nonce = try await server.serverNonce()
            let token = try Provider.token(subject: Self.subject(), nonce: nonce)
            let claim = try Provider.hashedNonce(nonce)
            let response = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: claim))
            #expect(response.status == 401)
            #expect(server.server.metrics.idTokenRejections.value(.token(.nonceMismatch)) == 1)
            // The owner's own sign-in still works: the nonce was not consumed by the refused attempt.
            let owner = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: nonce))
            #expect(owner.status == 200)
        }
    }

    @Test("a nonce expires 10 minutes after it was issued")
    func expiry() async throws {
        let start = Date()
        let clock = ManualClock(start)
        try await withIdentityProvider(now: clock.closure) { server, _ in
            let nonce = try await server.serverNonce()
            clock.advance(601)
            let token = try Provider.token(
                subject: Self.subject(), nonce: nonce, issuedAt: start.addingTimeInterval(601))
            let response = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: nonce))
            #expect(response.status == 401)
            #expect(server.server.metrics.idTokenRejections.value(.nonceNotIssued) == 1)
        }
    }

    @Test("past identity.maxPendingNonces, 503 unavailable with Retry-After 60; a consumed nonce frees a place")
    func cap() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_IDENTITY_MAX_PENDING_NONCES": "2"]) { server, _ in
            let first = try await server.serverNonce()
            _ = try await server.serverNonce()
            let refused = try await server.request("POST", "/auth/nonce")
            #expect(refused.status == 503)
            #expect(refused.errorCode == "unavailable")
            #expect(refused.headers["retry-after"] == "60")
            let token = try Provider.token(subject: Self.subject(), nonce: first)
            let signedIn = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: first))
            #expect(signedIn.status == 200)
            #expect(try await server.request("POST", "/auth/nonce").status == 200)
        }
    }

    @Test("with identity.requireServerNonce false, an app-chosen nonce and no nonce at all still sign in")
    func appChosenWhenNotRequired() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_IDENTITY_REQUIRE_SERVER_NONCE": "false"]) {
            server, _ in
            let chosen = try Provider.token(subject: Self.subject(), nonce: "app-chosen")
            let withNonce = try await server.request(
                "POST", "/auth/idtoken", json: Provider.body(chosen, nonce: "app-chosen"))
            #expect(withNonce.status == 200)
            let bare = try Provider.token(subject: Self.subject(), nonce: nil)
            let withoutNonce = try await server.request("POST", "/auth/idtoken", json: Provider.body(bare, nonce: nil))
            #expect(withoutNonce.status == 200)
        }
    }
}
