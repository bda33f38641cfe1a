import Foundation
import IdentityProviders
import StrictJSON
import Testing
import TokenService
import TokenServiceTesting

/// How refused ID tokens are counted (issue 30, item 6) and which tokens are refused for their type or audience
/// (item 7), end to end: garbage counts against the sender's address only, with a budget high enough for carrier
/// NAT; a refusal after the provider's signature held counts against that provider's subject.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct IDTokenFailureLimitTests {
    typealias Provider = FakeIdentityProvider

    static func subject() -> String { "001234.\(UUID().uuidString.lowercased())" }

    /// The status of `POST /auth/idtoken` with `token`.
    static func status(_ server: TestServer, _ token: String) async throws -> Int {
        try await server.request("POST", "/auth/idtoken", json: Provider.body(token)).status
    }

    @Test("six garbage tokens from one address do not lock that address out")
    func garbageDoesNotLockAddress() async throws {
        // The per-account budget at its default, 5: before, the sixth token and every sign-in after it were 429.
        try await withIdentityProvider { server, _ in
            var statuses: [Int] = []
            for garbage in ["not.a.jwt", "x", "e30.e30.e30", "a.b.c", "garbage", "not.a.jwt"] {
                statuses.append(try await Self.status(server, garbage))
            }
            #expect(statuses == Array(repeating: 401, count: 6))
            let subject = Self.subject()
            #expect(
                try await server.signInWithIDToken { try Provider.token(subject: subject, nonce: $0) }.status == 200)
            #expect(server.server.metrics.idTokenSignIns.value(.rateLimited) == 0)
        }
    }

    @Test("signature-valid but refused tokens lock their subject, not another subject from the same address")
    func signedRefusalsLockTheSubject() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT": "2"]) {
            server, _ in
            let victim = Self.subject()
            let wrongAudience = try Provider.token(subject: victim, audience: "com.example.other")
            let expired = try Provider.token(subject: victim, issuedAt: Date().addingTimeInterval(-300), lifetime: 60)
            #expect(try await Self.status(server, wrongAudience) == 401)
            #expect(try await Self.status(server, expired) == 401)
            // The subject's budget is spent: even its valid token, with a server-issued nonce, waits.
            let locked = try await server.signInWithIDToken { try Provider.token(subject: victim, nonce: $0) }
            #expect(locked.status == 429)
            #expect(locked.headers["retry-after"] != nil)
            // Another subject from the same address signs in.
            let other = Self.subject()
            #expect(try await server.signInWithIDToken { try Provider.token(subject: other, nonce: $0) }.status == 200)
            #expect(server.server.metrics.idTokenSignIns.value(.rateLimited) == 1)
        }
    }

    @Test("a sign-in clears its subject's failures")
    func successResetsSubject() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT": "2"]) {
            server, _ in
            let subject = Self.subject()
            var statuses: [Int] = []
            for (offset, succeeds) in [false, true, false, true].enumerated() {
                // A token made for a nonce other than the body's is refused after its signature; a token for the
                // server-issued nonce it is sent with signs in. Each token is issued a second apart, so none is a
                // replay of another.
                let issuedAt = Date().addingTimeInterval(-Double(offset))
                let response = try await server.signInWithIDToken {
                    try Provider.token(subject: subject, nonce: succeeds ? $0 : "other", issuedAt: issuedAt)
                }
                statuses.append(response.status)
            }
            #expect(statuses == [401, 200, 401, 200])
        }
    }

    @Test("the per-address budget still applies to every refused token: 429 beyond it, for valid tokens too")
    func addressBudget() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_RATE_LIMIT_ID_TOKEN_FAILURES_PER_ADDRESS": "3"]) {
            server, _ in
            // A signed refusal counts against the address too.
            let wrongNonce = try Provider.token(subject: Self.subject(), nonce: "other")
            var statuses: [Int] = []
            for token in ["garbage", "not.a.jwt", wrongNonce] { statuses.append(try await Self.status(server, token)) }
            #expect(statuses == [401, 401, 401])
            let limited = try await server.request("POST", "/auth/idtoken", json: Provider.body("garbage"))
            #expect(limited.status == 429)
            #expect(limited.headers["retry-after"] != nil)
            #expect(try await Self.status(server, try Provider.token(subject: Self.subject())) == 429)
        }
    }

    @Test("an access token of the provider (typ at+jwt) and an aud listing a foreign audience are refused")
    func typeAndAudience() async throws {
        try await withIdentityProvider { server, _ in
            let subject = Self.subject()
            let nonce = try await server.serverNonce()
            let claims = try Provider.claims(subject: subject, nonce: nonce)
            let header: JSONObject = ["alg": "RS256", "kid": .string(Provider.rsaKeyID), "typ": "at+jwt"]
            #expect(try await Self.status(server, try Provider.signed(claims, header: header)) == 401)
            #expect(server.server.metrics.idTokenRejections.value(.token(.tokenType)) == 1)

            var foreign = try Provider.claims(subject: subject)
            foreign["aud"] = .array([.string(Provider.audience), "https://api.other.example"])
            foreign["azp"] = .string(Provider.audience)
            #expect(try await Self.status(server, try Provider.signed(foreign)) == 401)
            #expect(server.server.metrics.idTokenRejections.value(.token(.untrustedAudience)) == 1)

            // The same claims as an ID token (typ JWT, our audience only) sign in.
            let signIn = try await server.request(
                "POST", "/auth/idtoken", json: Provider.body(try Provider.signed(claims), nonce: nonce))
            #expect(signIn.status == 200)
            let logs = server.logs()
            #expect(logs.contains(#""reason":"token_type""#))
            #expect(logs.contains(#""reason":"untrusted_audience""#))
        }
    }
}
