import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// `identityProviders.<name>.tenant`: the tenant of the accounts a sign-in through that provider creates. A sign-in
/// to an existing account (its own identity, or linked by its verified email) never changes the account's tenant.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct ProviderTenantTests {
    typealias Provider = FakeIdentityProvider

    static func subject() -> String { "001234.\(UUID().uuidString.lowercased())" }
    static func email() -> String { "tenant-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    /// `POST /auth/idtoken` of `provider` for (`subject`, `email`), with a fresh server nonce.
    static func signIn(
        _ server: TestServer, provider: String = "apple", subject: String, email: String? = nil
    ) async throws -> TestResponse {
        let audience = provider == "apple" ? Provider.audience : Provider.audience(of: provider)
        return try await server.signInWithIDToken(provider: provider) {
            try Provider.token(subject: subject, email: email, nonce: $0, audience: audience)
        }
    }

    /// The answer's `user.tenantId`, the access token's `tenantId` claim and `/auth/me`'s `tenantId` (nil for
    /// JSON `null`), after checking that each is present.
    static func tenants(_ server: TestServer, _ response: TestResponse) async throws -> [String?] {
        let body = try response.object()
        let user = try #require(body["user"] as? [String: Any])
        let access = try #require(body["accessToken"] as? String)
        let claims = try AccountFlowTests.claims(access)
        let me = try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"])
        #expect(me.status == 200)
        let profile = try me.object()
        for object in [user, claims, profile] { #expect(object.keys.contains("tenantId")) }
        return [user["tenantId"] as? String, claims["tenantId"] as? String, profile["tenantId"] as? String]
    }

    @Test("a first sign-in through a provider with tenant creates a user of that tenant, in its token and /auth/me")
    func createdWithTenant() async throws {
        try await withIdentityProvider(otherProviders: ["corp"], tenant: "acme") { server, _ in
            let subject = Self.subject()
            let first = try await Self.signIn(server, subject: subject, email: Self.email())
            #expect(first.status == 200)
            #expect(try first.object()["created"] as? Bool == true)
            #expect(try await Self.tenants(server, first) == ["acme", "acme", "acme"])
            let again = try await Self.signIn(server, subject: subject)
            #expect(try again.object()["created"] as? Bool == false)
            #expect(try await Self.tenants(server, again) == ["acme", "acme", "acme"])
            // A provider without `tenant` creates accounts without one, as before.
            let other = try await Self.signIn(server, provider: "corp", subject: Self.subject())
            #expect(other.status == 200)
            #expect(try other.object()["created"] as? Bool == true)
            #expect(try await Self.tenants(server, other) == [nil, nil, nil])
        }
    }

    @Test("a known identity keeps the tenant the operator set since, or cleared")
    func operatorTenantWins() async throws {
        try await withIdentityProvider(tenant: "acme") { server, _ in
            let subject = Self.subject()
            let email = Self.email()
            let made = try await Self.signIn(server, subject: subject, email: email)
            #expect(try await Self.tenants(server, made) == ["acme", "acme", "acme"])
            for tenant in ["globex", nil] as [String?] {
                let accounts = try await AccountAdministration.open(configuration: server.configuration)
                try await accounts.setTenant(account: email, tenantID: tenant)
                accounts.close()
                let again = try await TestBackend.afterOtherStoreChange {
                    try await Self.signIn(server, subject: subject)
                } until: {
                    (try? $0.object()["user"] as? [String: Any])?["tenantId"] as? String == tenant
                }
                #expect(again.status == 200)
                #expect(try await Self.tenants(server, again) == [tenant, tenant, tenant])
            }
        }
    }

    @Test("an existing account linked by its verified email keeps its own tenant, or none")
    func linkedKeepsTenant() async throws {
        let linking = ["TOKENVEND_IDENTITY_LINK_VERIFIED_EMAIL": "true"]
        try await withIdentityProvider(environment: linking, tenant: "acme") { server, _ in
            for tenant in ["globex", nil] as [String?] {
                let email = Self.email()
                let accounts = try await AccountAdministration.open(configuration: server.configuration)
                _ = try await accounts.add(email: email, password: TestServer.password, role: "user", tenantID: tenant)
                accounts.close()
                let subject = Self.subject()
                let linked = try await TestBackend.afterOtherStoreChange {
                    try await Self.signIn(server, subject: subject, email: email)
                } until: {
                    $0.status == 200
                }
                #expect(linked.status == 200)
                #expect(try linked.object()["created"] as? Bool == false)
                #expect(try await Self.tenants(server, linked) == [tenant, tenant, tenant])
                let login = try await server.logIn(email: email)
                #expect(try AccountFlowTests.claims(login.accessToken)["tenantId"] as? String == tenant)
            }
        }
    }

    @Test("a browser sign-in through a provider with tenant creates a user of that tenant; it signs in unchanged")
    func browserCreatedWithTenant() async throws {
        let members = #""clientSecret":"\#(BrowserSignInTests.secret)","tenant":"acme""#
        try await BrowserSignInTests.withBrowserSignIn(members: members) { server, _ in
            for created in [true, false] {
                let trip = try await BrowserSignInTests.signIn(server)
                let issued = try await BrowserSignInTests.exchange(server, code: trip.code, verifier: trip.verifier)
                #expect(issued.status == 200)
                #expect(try issued.object()["created"] as? Bool == created)
                #expect(try await Self.tenants(server, issued) == ["acme", "acme", "acme"])
            }
        }
    }
}
