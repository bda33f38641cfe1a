import Foundation
import HTTPServerTesting
import IdentityProviders
import Testing
import TokenService
import TokenServiceTesting

/// `POST /auth/idtoken` end to end: the real server on a loopback port, a fake Apple whose key URL is on loopback
/// (issuer still `https://appleid.apple.com`), ID tokens signed at test time.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct IDTokenSignInTests {
    typealias Provider = FakeIdentityProvider

    static func subject() -> String { "001234.\(UUID().uuidString.lowercased())" }

    @Test("a new identity with a verified email creates a passwordless user, created true, and the tokens work")
    func newUser() async throws {
        try await withIdentityProvider { server, provider in
            let email = "new-\(UUID().uuidString.prefix(8).lowercased())@privaterelay.appleid.com"
            let subject = Self.subject()
            let response = try await server.signInWithIDToken {
                try Provider.token(subject: subject, email: email, nonce: $0)
            }
            #expect(response.status == 200)
            #expect(response.headers["cache-control"] == "no-store")
            let body = try response.object()
            #expect(body["created"] as? Bool == true)
            #expect(body["tokenType"] as? String == "Bearer")
            let user = try #require(body["user"] as? [String: Any])
            #expect(user["email"] as? String == email)
            let access = try #require(body["accessToken"] as? String)
            let me = try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"])
            #expect(me.status == 200)
            #expect(try me.object()["sub"] as? String == user["id"] as? String)
            // The user has no password: a login with any password is the usual 401.
            let login = try await server.request(
                "POST", "/auth/login", json: #"{"email":"\#(email)","password":"\#(TestServer.password)"}"#)
            #expect(login.status == 401)
            #expect(server.server.metrics.idTokenSignIns.value(.created) == 1)
            #expect(provider.fetches == 1)
            // The email came verified from Apple: it is marked so.
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            defer { accounts.close() }
            let stored = try await TestBackend.afterOtherStoreChange {
                try await accounts.list().first { $0.email == email }
            } until: {
                $0 != nil
            }
            #expect(stored?.emailVerified == true)
        }
    }

    @Test("a known identity signs in its user with created false; the warm key cache makes no second fetch")
    func knownIdentity() async throws {
        try await withIdentityProvider { server, provider in
            let subject = Self.subject()
            let first = try await server.signInWithIDToken {
                try Provider.token(subject: subject, nonce: $0, es256: true)
            }
            #expect(first.status == 200)
            let second = try await server.signInWithIDToken { try Provider.token(subject: subject, nonce: $0) }
            #expect(second.status == 200)
            let firstUser = try #require(try first.object()["user"] as? [String: Any])
            let secondUser = try #require(try second.object()["user"] as? [String: Any])
            #expect(try first.object()["created"] as? Bool == true)
            #expect(try second.object()["created"] as? Bool == false)
            #expect(firstUser["id"] as? String == secondUser["id"] as? String)
            // No email was given: the user has none, and the JSON omits it.
            #expect(firstUser["email"] == nil)
            #expect(provider.fetches == 1)
            #expect(server.server.metrics.idTokenSignIns.value(.signedIn) == 1)
        }
    }

    @Test("with identity.linkVerifiedEmail, an existing user whose email is unverified is 409 and nothing is linked")
    func linkRefusedForUnverifiedAccount() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_IDENTITY_LINK_VERIFIED_EMAIL": "true"]) {
            server, _ in
            // Anyone can register someone else's address: linking that account would hand it to its registrant.
            let existing = try await server.signUp()
            let subject = Self.subject()
            let response = try await server.signInWithIDToken {
                try Provider.token(subject: subject, email: existing.email, nonce: $0)
            }
            #expect(response.status == 409)
            #expect(response.errorCode == "identity_conflict")
            #expect(server.server.metrics.idTokenSignIns.value(.conflict) == 1)
            #expect(server.server.metrics.idTokenSignIns.value(.linked) == 0)
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            defer { accounts.close() }
            #expect(try await accounts.identities(account: existing.email).isEmpty)
            let stored = try await accounts.list().first { $0.email == existing.email.lowercased() }
            #expect(stored?.emailVerified == false)
        }
    }

    @Test("with identity.linkVerifiedEmail, a verified email of a verified existing user links the identity to it")
    func linkVerifiedEmail() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_IDENTITY_LINK_VERIFIED_EMAIL": "true"]) {
            server, _ in
            let existing = try await server.signUp()
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            defer { accounts.close() }
            try await accounts.verifyEmail(email: existing.email)
            let subject = Self.subject()
            let response = try await TestBackend.afterOtherStoreChange {
                // A fresh nonce per attempt: a retried token would be refused as a replay instead.
                try await server.signInWithIDToken {
                    try Provider.token(subject: subject, email: existing.email, nonce: $0)
                }
            } until: {
                $0.status == 200
            }
            #expect(response.status == 200)
            #expect(try response.object()["created"] as? Bool == false)
            #expect((try response.object()["user"] as? [String: Any])?["id"] as? String == existing.userID)
            #expect(server.server.metrics.idTokenSignIns.value(.linked) == 1)
            // The password still works, and the next sign-in finds the identity.
            _ = try await server.logIn(email: existing.email)
            let again = try await server.signInWithIDToken { try Provider.token(subject: subject, nonce: $0) }
            #expect((try again.object()["user"] as? [String: Any])?["id"] as? String == existing.userID)
            let stored = try await TestBackend.afterOtherStoreChange {
                try await accounts.list().first { $0.email == existing.email.lowercased() }
            } until: {
                $0?.emailVerified == true
            }
            #expect(stored?.emailVerified == true)
        }
    }

    @Test("with identity.linkVerifiedEmail, the verified email of a disabled user is 401 user_disabled, no link")
    func linkRefusedForDisabledUser() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_IDENTITY_LINK_VERIFIED_EMAIL": "true"]) {
            server, _ in
            let email = "off-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            defer { accounts.close() }
            _ = try await accounts.add(email: email, password: TestServer.password, role: "user", tenantID: nil)
            _ = try await accounts.disable(email: email)
            let subject = Self.subject()
            let refused = try await TestBackend.afterOtherStoreChange {
                try await server.signInWithIDToken { try Provider.token(subject: subject, email: email, nonce: $0) }
            } until: {
                $0.status == 401
            }
            #expect(refused.status == 401)
            #expect(refused.errorCode == "invalid_grant")
            #expect(server.server.metrics.idTokenRejections.value(.userDisabled) >= 1)
            #expect(server.server.metrics.idTokenSignIns.value(.linked) == 0)
            #expect(try await accounts.identities(account: email).isEmpty)
        }
    }

    @Test("without linking, a verified email of an existing user is 409 identity_conflict and nothing is linked")
    func linkRefused() async throws {
        try await withIdentityProvider { server, _ in
            let existing = try await server.signUp()
            let subject = Self.subject()
            let response = try await server.signInWithIDToken {
                try Provider.token(subject: subject, email: existing.email, nonce: $0)
            }
            #expect(response.status == 409)
            #expect(response.errorCode == "identity_conflict")
            #expect(server.server.metrics.idTokenSignIns.value(.conflict) == 1)
            // Nothing was linked: the same identity with a new token is refused the same way.
            let again = try await server.signInWithIDToken {
                try Provider.token(subject: subject, email: existing.email, nonce: $0)
            }
            #expect(again.status == 409)
        }
    }

    @Test("with registration closed, an unknown identity is 403 registration_closed")
    func registrationClosed() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_REGISTRATION_ENABLED": "false"]) { server, _ in
            let subject = Self.subject()
            let response = try await server.signInWithIDToken { try Provider.token(subject: subject, nonce: $0) }
            #expect(response.status == 403)
            #expect(response.errorCode == "registration_closed")
        }
    }

    @Test("the same ID token twice: the second is 401 invalid_grant, reason replayed in the log and the metric")
    func replay() async throws {
        try await withIdentityProvider { server, _ in
            let nonce = try await server.serverNonce()
            let token = try Provider.token(subject: Self.subject(), nonce: nonce)
            let first = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: nonce))
            #expect(first.status == 200)
            let second = try await server.request("POST", "/auth/idtoken", json: Provider.body(token, nonce: nonce))
            #expect(second.status == 401)
            #expect(second.errorCode == "invalid_grant")
            #expect(second.headers["www-authenticate"] == #"Bearer realm="tokenvend""#)
            #expect(server.server.metrics.idTokenRejections.value(.token(.replayed)) == 1)
            let logs = server.logs()
            #expect(logs.contains(#""reason":"replayed""#))
            #expect(!logs.contains(token))
        }
    }

    @Test("every refused token gets the same 401 body; the reason is only in the metric")
    func sameBodyForEveryReason() async throws {
        try await withIdentityProvider { server, _ in
            let wrongAudience = try Provider.token(subject: Self.subject(), audience: "com.example.other")
            let wrongNonce = try Provider.token(subject: Self.subject(), nonce: "other")
            let responses = [
                try await server.request("POST", "/auth/idtoken", json: Provider.body(wrongAudience)),
                try await server.request("POST", "/auth/idtoken", json: Provider.body(wrongNonce)),
                try await server.request("POST", "/auth/idtoken", json: Provider.body("not.a.jwt")),
            ]
            #expect(responses.map(\.status) == [401, 401, 401])
            #expect(Set(responses.map(\.text)).count == 1)
            #expect(server.server.metrics.idTokenRejections.value(.token(.audience)) == 1)
            #expect(server.server.metrics.idTokenRejections.value(.token(.nonceMismatch)) == 1)
            #expect(server.server.metrics.idTokenRejections.value(.token(.malformed)) == 1)
        }
    }

    @Test("a valid token of a disabled user is 401 invalid_grant, reason user_disabled")
    func disabledUser() async throws {
        try await withIdentityProvider { server, _ in
            let subject = Self.subject()
            let email = "gone-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let first = try await server.signInWithIDToken {
                try Provider.token(subject: subject, email: email, nonce: $0)
            }
            #expect(first.status == 200)
            let accounts = try await AccountAdministration.open(configuration: server.configuration)
            _ = try await accounts.disable(email: email)
            accounts.close()
            let refused = try await TestBackend.afterOtherStoreChange {
                // A fresh nonce per attempt: a retried token would be refused as a replay instead.
                try await server.signInWithIDToken { try Provider.token(subject: subject, nonce: $0) }
            } until: {
                $0.status == 401
            }
            #expect(refused.status == 401)
            #expect(refused.errorCode == "invalid_grant")
            #expect(server.server.metrics.idTokenRejections.value(.userDisabled) == 1)
        }
    }

    @Test("provider down with a cold cache: 503 unavailable with Retry-After")
    func providerDownColdCache() async throws {
        // A port nobody listens on: bind one, note it, close it.
        let closed = try RawHTTP.deadPort()
        try await withIdentityProvider(jwksURL: "http://127.0.0.1:\(closed)/auth/keys") { server, _ in
            let response = try await server.request(
                "POST", "/auth/idtoken", json: Provider.body(try Provider.token(subject: Self.subject())))
            #expect(response.status == 503)
            #expect(response.errorCode == "unavailable")
            let retryAfter = try #require(response.headers["retry-after"].flatMap { Int($0) })
            #expect(retryAfter >= 1)
            #expect(server.server.metrics.idTokenSignIns.value(.providerUnavailable) == 1)
        }
    }

    @Test("the cookie strategy sets the session cookies and answers without tokens, with expiresAt and created")
    func cookieStrategy() async throws {
        try await withIdentityProvider { server, _ in
            let subject = Self.subject()
            let response = try await server.signInWithIDToken(headers: ["X-Auth-Strategy": "cookie"]) {
                try Provider.token(subject: subject, nonce: $0)
            }
            #expect(response.status == 200)
            let body = try response.object()
            #expect(Set(body.keys) == ["expiresIn", "expiresAt", "refreshExpiresAt", "user", "created"])
            #expect(body["created"] as? Bool == true)
            let cookies = response.headers["set-cookie"] ?? ""
            #expect(cookies.contains("__Host-access_token="))
            #expect(cookies.contains("__Secure-refresh_token="))
            #expect(cookies.contains("__Host-csrf_token="))
        }
    }

    @Test("the per-address request limit applies to sign-ins and, in a budget of its own, to nonces: 429 beyond it")
    func addressLimit() async throws {
        try await withIdentityProvider(environment: ["TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "2"]) {
            server, _ in
            var statuses: [Int] = []
            for _ in 0..<2 {
                let subject = Self.subject()
                statuses.append(
                    try await server.signInWithIDToken { try Provider.token(subject: subject, nonce: $0) }.status)
            }
            // Two nonces and two sign-ins: both budgets are spent.
            let token = try Provider.token(subject: Self.subject())
            statuses.append(try await server.request("POST", "/auth/idtoken", json: Provider.body(token)).status)
            let nonce = try await server.request("POST", "/auth/nonce")
            statuses.append(nonce.status)
            #expect(statuses == [200, 200, 429, 429])
            #expect(nonce.headers["retry-after"] != nil)
        }
    }

    @Test("400 for an unknown provider, a malformed body or an extra member; 415 for a body that is not JSON")
    func badRequests() async throws {
        try await withIdentityProvider { server, provider in
            let nonce = try await server.serverNonce()
            let token = try Provider.token(subject: Self.subject(), nonce: nonce)
            let cases: [(String, Int)] = [
                (Provider.body(token, provider: "facebook"), 400),
                (#"{"provider":"apple"}"#, 400),
                (#"{"provider":"apple","idToken":5}"#, 400),
                (#"{"provider":"apple","idToken":"x","extra":1}"#, 400),
                (#"{"provider":"apple","idToken":"x","name":{"middleName":"y"}}"#, 400),
                ("[]", 400),
            ]
            for (body, status) in cases {
                let response = try await server.request("POST", "/auth/idtoken", json: body)
                #expect(response.status == status, "\(body)")
                #expect(response.errorCode == "invalid_request", "\(body)")
            }
            let text = try await server.request(
                "POST", "/auth/idtoken", headers: ["Content-Type": "text/plain"], json: Provider.body(token))
            #expect(text.status == 415)
            // None of them reached the key URL.
            #expect(provider.fetches == 0)
            // A name is accepted.
            let named = try await server.request(
                "POST", "/auth/idtoken",
                json:
                    #"{"provider":"apple","idToken":"\#(token)","nonce":"\#(nonce)","name":{"givenName":"Ada","familyName":null}}"#
            )
            #expect(named.status == 200)
        }
    }
}
