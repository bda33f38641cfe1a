import Cryptography
import Foundation
import HTTPServerTesting
import IdentityProviders
import IdentityProvidersTesting
import StrictJSON
import Testing
import TokenService
import TokenServiceTesting

/// `POST /auth/idtoken` against what an attacker (or a flaky provider) sends: replays in the clock-skew leeway and
/// under a second signature, forged algorithms, unverified emails, and a provider that goes down.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct IDTokenSignInAttackTests {
    typealias Provider = FakeIdentityProvider

    static func subject() -> String { "001234.\(UUID().uuidString.lowercased())" }

    @Test("a token used at exp − 1 s is refused again at exp + 30 s (inside the 60 s leeway): 401, reason replayed")
    func replayInsideLeeway() async throws {
        let start = Date()
        let clock = ManualClock(start)
        try await withIdentityProvider(now: clock.closure) { server, _ in
            let nonce = try await server.serverNonce()
            let token = try Provider.token(subject: Self.subject(), nonce: nonce, issuedAt: start, lifetime: 120)
            clock.advance(119)
            let first = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: nonce))
            #expect(first.status == 200)
            clock.advance(31)
            let second = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: nonce))
            #expect(second.status == 401)
            #expect(second.errorCode == "invalid_grant")
            #expect(server.server.metrics.idTokenRejections.value(.token(.replayed)) == 1)
            #expect(server.server.metrics.idTokenRejections.value(.token(.expired)) == 0)
        }
    }

    @Test("the high-S twin of a used ES256 token (s → n − s, still a valid signature) is refused as a replay")
    func replayUnderTwinSignature() async throws {
        try await withIdentityProvider { server, _ in
            let nonce = try await server.serverNonce()
            let token = try Provider.token(subject: Self.subject(), nonce: nonce, es256: true)
            let twin = try TestIDToken.highSTwin(token)
            #expect(twin != token)
            let first = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: nonce))
            #expect(first.status == 200)
            let second = try await server.request("POST", "/auth/idtoken", json: Provider.body(twin, nonce: nonce))
            #expect(second.status == 401)
            #expect(second.errorCode == "invalid_grant")
            #expect(server.server.metrics.idTokenRejections.value(.token(.replayed)) == 1)
            #expect(server.server.metrics.idTokenRejections.value(.token(.signature)) == 0)
        }
    }

    @Test("email_verified false with an existing user's email: a new user without email, no link and no 409")
    func unverifiedEmailMakesNewUser() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_IDENTITY_LINK_VERIFIED_EMAIL": "true"]) {
            server, _ in
            let existing = try await server.signUp()
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            defer { accounts.close() }
            try await accounts.verifyEmail(email: existing.email)
            let subject = Self.subject()
            let response = try await server.signInWithIDToken {
                try Provider.token(subject: subject, email: existing.email, emailVerified: false, nonce: $0)
            }
            #expect(response.status == 200)
            let body = try response.object()
            #expect(body["created"] as? Bool == true)
            let user = try #require(body["user"] as? [String: Any])
            #expect(user["id"] as? String != existing.userID)
            #expect(user["email"] == nil)
            #expect(server.server.metrics.idTokenSignIns.value(.linked) == 0)
            #expect(server.server.metrics.idTokenSignIns.value(.conflict) == 0)
            #expect(try await accounts.identities(account: existing.email).isEmpty)
        }
    }

    @Test("alg none, signed or not, is 401 invalid_grant, reason algorithm, with no key fetch")
    func algNone() async throws {
        try await withIdentityProvider { server, provider in
            let claims = try Provider.claims(subject: Self.subject())
            let header: JSONObject = ["alg": "none", "kid": .string(Provider.rsaKeyID)]
            let unsigned = TestIDToken.make(header: header, claims: claims) { _ in [] }
            let response = try await server.request("POST", "/auth/idtoken", json: Provider.body(unsigned))
            #expect(response.status == 401)
            #expect(response.errorCode == "invalid_grant")
            #expect(server.server.metrics.idTokenRejections.value(.token(.algorithm)) == 1)
            #expect(provider.fetches == 0)
        }
    }

    @Test("HS256 MACed with the provider's RSA public key (PEM) as the secret is 401, reason algorithm")
    func hs256WithPublicKey() async throws {
        try await withIdentityProvider { server, provider in
            let claims = try Provider.claims(subject: Self.subject())
            let secret = Array(try Provider.rsaPublicKeyPEM().utf8)
            let header: JSONObject = ["alg": "HS256", "kid": .string(Provider.rsaKeyID), "typ": "JWT"]
            let forged = try TestIDToken.make(header: header, claims: claims) { input in
                try HMAC(algorithm: .sha256, key: secret, allowShortKey: true).authenticationCode(for: input)
            }
            let response = try await server.request("POST", "/auth/idtoken", json: Provider.body(forged))
            #expect(response.status == 401)
            #expect(response.errorCode == "invalid_grant")
            #expect(server.server.metrics.idTokenRejections.value(.token(.algorithm)) == 1)
            #expect(provider.fetches == 0)
        }
    }

    @Test("with a warm key cache, sign-ins still succeed (200) while the provider's key URL is down")
    func warmCacheProviderDown() async throws {
        try await withIdentityProvider { server, provider in
            let subject = Self.subject()
            let first = try await server.signInWithIDToken { try Provider.token(subject: subject, nonce: $0) }
            #expect(first.status == 200)
            #expect(provider.fetches == 1)
            await provider.shutdown()
            let second = try await server.signInWithIDToken {
                try Provider.token(subject: Self.subject(), nonce: $0, es256: true)
            }
            #expect(second.status == 200)
            #expect(server.server.metrics.idTokenSignIns.value(.providerUnavailable) == 0)
        }
    }
}
